"""English multiword expressions for the prompt parser, by emotion and class.

Three classes, because prompts name a feeling in three ways: idioms ("over the moon",
"seeing red"), what the body does ("my jaw dropped", "knees shaking") and the situation
that causes it ("just won the lottery", "stepped in something"). Idioms and situations are
listed with slots: "fly|flew|flying off the handle" lists the forms of a word and
"[completely|totally]" an optional one ("_" is a space inside an option: "did_not"), so
one line covers the tenses and fillers a prompt uses. Possessives are written "my": the
parser reads "your", "his", "her", "their" and "our" as "my" before matching.

Body reactions are not listed as phrases but as pairs (`BODY_REACTIONS`): a body word and
a reaction within a few words of it in the same clause, in either order and any tense, so
"my heart was pounding", "pounding heart" and "heart pounding" are one entry. Chinese
idioms are in `idioms.py`, single words in `lexicon.py`.
"""

from __future__ import annotations

from itertools import product

from emovox.emotion.lexicon import PLAIN, STRONG, WEAK


def expand(pattern: str) -> list[str]:
    """Every phrase a slot pattern stands for: "a|b c [d]" -> "a c d", "a c", "b c d", "b c"."""
    slots = []
    for slot in pattern.split():
        optional = slot.startswith("[") and slot.endswith("]")
        options = [option.replace("_", " ") for option in slot.strip("[]").split("|")]
        slots.append(options + [""] if optional else options)
    return [" ".join(word for word in words if word) for words in product(*slots)]


_IDIOMS: dict[tuple[str, float], tuple[str, ...]] = {
    ("happy", PLAIN): (
        "over the moon", "walking|walked on air", "on top of the world", "in high|good|great spirits",
        "in a great|good|fine|fantastic|wonderful|cheerful|happy|sunny|celebrating|celebratory mood",
        "thrilled to pieces", "grinning|grinned|grin from ear to ear", "happy as a clam|lark|larry",
        "full of joy", "tears of joy", "having a blast", "pleased as punch", "in seventh heaven",
        "couldn't|could_not be happier", "full of beans", "laughing out loud", "on cloud nine",
        "tickled pink", "chuffed to bits", "like a kid in a candy store", "like a dog with two tails",
        "like the cat that got the cream", "jumping|jumped|jump for joy", "bursting with joy|pride|happiness",
        "beaming with pride|joy", "all smiles", "can't|cannot stop smiling|grinning", "made my day",
        "on a high", "riding high", "time of my life", "best day ever", "best day of my life",
        "dream come true", "happy camper", "like christmas morning", "grinning like a cheshire cat",
        "heart full", "glowing with pride", "in a good place",
    ),
    ("angry", PLAIN): (
        "fed up", "at the end of my rope|tether", "up in arms", "fly|flew|flying|flies off the handle",
        "at my wits' end", "at my wits end", "pissed off", "sick and tired", "boiling with rage",
        "ready to explode", "in a foul|bad|rotten|terrible|nasty|black mood", "hit|hits|hitting the roof",
        "flip|flipped|flipping|flips my lid", "on the warpath", "out of patience",
        "lost|losing|lose my patience|temper|cool", "had enough", "had it up to here", "steaming mad",
        "boiling mad", "seeing|see|saw|seen red", "blow|blew|blowing|blown my top|stack|fuse",
        "hot under the collar", "foaming at the mouth", "fit to be tied", "mad as a hornet|hatter",
        "on my last nerve", "get|gets|got|getting on my nerves", "drive|drives|drove|driving me crazy|nuts|mad",
        "up the wall", "spitting mad|feathers", "ticked|teed|hacked|cheesed off", "hopping|raving mad",
        "in a huff|rage|temper|strop", "throw|threw|throwing a tantrum|fit", "bent out of shape",
        "bite|bit my head off", "how dare you|they|he|she", "the last straw", "enough is enough",
        "steam coming out of my ears", "smoke coming out of my ears", "up to here", "what the hell",
        "damn it", "for crying out loud", "slammed|slamming|slam the door", "road rage",
        "see|seeing|saw the red mist", "like a bull in a china shop", "spitting|spit|spat fire|venom|nails",
        "punch|punching|punched a wall|something|someone|somebody", "want to scream", "breathing fire",
    ),
    ("sad", PLAIN): (
        "down in the dumps", "down in the mouth", "feeling|feel|feels|felt blue|down|low",
        "on the verge of tears", "close to tears", "heart is broken", "a lump in my throat", "lump in my throat",
        "cry|crying|cried my eyes|heart out", "sick at heart", "down and out", "at a low ebb",
        "in mourning", "broken heart", "heavy heart", "heavy-hearted", "choked up", "in tears",
        "tears in my eyes", "out of sorts", "in the doldrums", "long face", "cried myself to sleep",
        "lost|losing|lose a loved one", "lost my mother|father|mom|dad|mum|wife|husband|friend|dog|cat|job|grandma|grandpa",
        "passed away", "at a funeral", "broke|broken up with", "got dumped", "all alone", "missing home",
        "with a sigh", "world fell apart", "feel like crying", "want to cry", "wanted to cry",
        "nothing matters anymore", "lost all hope", "no hope left", "a bad day", "rainy day blues",
    ),
    ("sad", STRONG): ("world is ending", "heart shattered", "torn apart", "gutted beyond words"),
    ("surprised", PLAIN): (
        "caught [completely|totally|entirely] off guard", "can't|cannot|couldn't|could_not believe it|this|that|my_eyes|my_ears",
        "no way", "taken|caught by surprise", "mind blown",
        "blown away", "lost for words", "at a loss for words", "knocked for six", "bowled over",
        "who would have thought", "what on earth", "oh my god|gosh|goodness", "you're kidding", "are you kidding",
        "jaw on the floor", "out of the blue", "out of nowhere", "bolt from the blue",
        "never saw it coming", "didn't|did_not see that|it coming", "didn't|did_not expect", "never expected",
        "taken aback", "threw|throw|thrown me for a loop", "knocked|knock me over|down with a feather",
        "did a double take", "stopped in my tracks", "plot twist", "blew|blow|blown my mind", "wait what",
        "holy cow|moly|smokes", "good heavens|lord", "my goodness", "goodness gracious", "no kidding",
        "you don't say", "are you serious", "for real", "who knew", "what a surprise", "surprise party",
        "eyes popping out", "eyes wide open", "wide-eyed", "open-mouthed", "mouth hanging open",
        "like a deer in headlights", "you did what", "believe what", "did what now",
    ),
    ("fearful", PLAIN): (
        "hair standing|stands|stood on end", "hair is standing on end", "chills|shivers down my spine",
        "a nervous wreck", "freaking|freaked|freak out", "on pins and needles", "blood ran|runs|running cold",
        "in a cold sweat", "jump|jumped|jumping out of my skin", "weak at the knees", "goosebumps",
        "afraid for my life", "butterflies in my stomach", "saw|seen|seeing|see a ghost",
        "white as a sheet|ghost", "shaking|trembling|shook like a leaf", "heart in my mouth|throat",
        "on edge", "on tenterhooks", "quaking|shaking in my boots", "sweating bullets", "bundle of nerves",
        "frightened to death", "give|gives|gave|giving me the creeps|willies|heebie-jeebies",
        "creeped|creeps out", "cold feet", "sense of dread", "bad feeling about this|it", "haunted house",
        "horror movie", "jump scare", "dead of night", "being followed", "someone is following me",
        "noise in the dark", "alone in the dark", "on the edge of my seat", "scared out of my wits|mind",
        "please don't hurt me", "hiding under the covers|bed", "fear for my life", "hiding|hide|hid from",
        "run for my life", "running for my life",
    ),
    ("fearful", WEAK): ("a bit on edge", "nerves on edge", "butterflies"),
    ("disgusted", PLAIN): (
        "makes|made me want to throw_up|puke|vomit|gag", "want to throw_up|puke|vomit", "makes|made me sick",
        "sick to my stomach", "makes|made me gag", "can't|cannot stand it|this|that|him|her|them",
        "look|looking|looked down on", "turn|turns|turned my nose up", "turned up my nose",
        "grossed out", "stepped|step|stepping in something|dog_poop|dog_poo|dog_mess|poop",
        "rotten eggs", "sour|spoiled|spoilt milk", "smells|smelled|smelt awful|terrible|disgusting|vile|foul",
        "what is that smell", "hair in my food|soup", "maggots", "cockroaches", "a cockroach",
        "turns|turned|turning my stomach", "made|makes|make my skin crawl", "hold|holding|held my nose",
        "bad taste in my mouth", "leaves|left a bad taste", "roll|rolled|rolling|rolls my eyes",
        "look down my nose", "how revolting", "makes|made me retch", "how gross", "eww gross",
        "stomach-turning", "stomach-churning",
    ),
    ("neutral", 0.0): (
        "calm down", "in a normal|neutral|even|level|plain|flat|calm|steady|matter-of-fact tone|voice", "just the facts",
        "straight face", "poker face", "as it is", "read it straight", "keep it neutral",
        "like a newsreader|newscaster|narrator|robot|machine|teacher|lecturer|announcer|news_anchor",
        "like reading the news", "reading the news", "the news", "weather report|forecast",
        "just read it", "read it out", "read aloud", "nothing special", "as usual", "business as usual",
        "public announcement", "airport announcement", "customer service", "without inflection",
        "no inflection", "no drama", "just say it", "neither happy nor sad",
    ),
}

#: phrase -> (emotion, inherent intensity)
PHRASES: dict[str, tuple[str, float]] = {
    phrase: key for key, patterns in _IDIOMS.items() for pattern in patterns for phrase in expand(pattern)}

#: body word -> {reaction stem: emotion}: "my heart is pounding" is fear, "my heart sank" is
#: sorrow. A reaction is matched by its stem in any tense ("dropped", "dropping" -> drop),
#: within `BODY_REACH` words of the body word in the same clause, either side.
BODY_REACTIONS: dict[str, dict[str, str]] = {
    "heart": {**dict.fromkeys("pound race thump hammer mouth throat".split(), "fearful"),
              **dict.fromkeys("sink sank sunk break broke broken ache heavy".split(), "sad"),
              **dict.fromkeys("leap leapt soar swell sing".split(), "happy"), "skip": "surprised"},
    "knee": dict.fromkeys("shake shook knock tremble wobble wobbly buckle weak jelly quake".split(), "fearful"),
    "leg": dict.fromkeys("shake shook tremble jelly wobble wobbly weak".split(), "fearful"),
    "hand": {**dict.fromkeys("shake shook tremble sweat sweaty clammy shaky".split(), "fearful"),
             "clench": "angry"},
    "palm": dict.fromkeys("sweat sweaty clammy".split(), "fearful"),
    "voice": {**dict.fromkeys("shake tremble quiver quaver shaky wobble".split(), "fearful"),
              **dict.fromkeys("crack break broke choke".split(), "sad")},
    "lip": {**dict.fromkeys("tremble quiver wobble".split(), "sad"), "curl": "disgusted"},
    "blood": {**dict.fromkeys("boil".split(), "angry"), **dict.fromkeys("cold curdle freeze froze".split(), "fearful")},
    "teeth": {**dict.fromkeys("grit grind clench gnash".split(), "angry"), "chatter": "fearful"},
    "fist": dict.fromkeys("clench ball shake shook pound".split(), "angry"),
    "jaw": {**dict.fromkeys("drop hit floor hang slack open".split(), "surprised"),
            **dict.fromkeys("clench tighten".split(), "angry")},
    "eye": {**dict.fromkeys("widen wide pop bulge saucer".split(), "surprised"),
            **dict.fromkeys("well water tear fill puffy moist wet".split(), "sad"),
            "roll": "disgusted", "narrow": "angry"},
    "tear": dict.fromkeys("stream roll run flow well fall pour".split(), "sad"),
    "stomach": {**dict.fromkeys("turn lurch heave".split(), "disgusted"),
                **dict.fromkeys("knot knotted churn butterfly drop".split(), "fearful")},
    "skin": {"crawl": "disgusted"},
    "hair": dict.fromkeys("stand end rise prickle".split(), "fearful"),
    "spine": dict.fromkeys("chill shiver tingle".split(), "fearful"),
    "face": {**dict.fromkeys("red flush purple".split(), "angry"),
             **dict.fromkeys("pale white ashen drain blanch".split(), "fearful"),
             "fell": "sad", "light": "happy", "lit": "happy"},
    "nose": dict.fromkeys("wrinkle scrunch crinkle pinch".split(), "disgusted"),
    "throat": dict.fromkeys("lump tighten".split(), "sad"),
    "smile": dict.fromkeys("big wide broad huge ear".split(), "happy"),
    # not the body, but read the same way: what a temper or one's nerves do
    "patience": dict.fromkeys("run ran out thin snap lose lost gone test tested wear".split(), "angry"),
    "temper": dict.fromkeys("lose lost flare short snap rise boil fray frayed".split(), "angry"),
    "nerves": dict.fromkeys("shot fray frayed jangle jangled edge wreck shred shredded".split(), "fearful"),
}
#: plural body words read as their singular
BODY_PLURALS = {"knees": "knee", "legs": "leg", "hands": "hand", "palms": "palm", "lips": "lip", "fists": "fist",
                "eyes": "eye", "tears": "tear", "hearts": "heart", "smiles": "smile", "teeth": "teeth", "tooth": "teeth"}
BODY_REACH = 4
