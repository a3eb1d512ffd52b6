"""Multiword expressions and idioms for the prompt parser, by emotion and language.

English expressions are written with slots: "fly|flew|flying off the handle" lists the
forms of a word, and "[completely|totally]" an optional one, so one line covers the
tenses and fillers a prompt uses. Possessives are written "my": the parser reads "your",
"his", "her", "their" and "our" as "my" before matching. Chinese idioms (成语) are listed
whole; an idiom that is not listed is read by its emotion morphemes (`IDIOM_MORPHEMES`),
so 怒不可遏 is angry without being listed while 语气 (a word of its own) is never 生气.
"""

from __future__ import annotations

from itertools import product

from emovox.emotion.lexicon import PLAIN, STRONG, WEAK


def expand(pattern: str) -> list[str]:
    """Every phrase a slot pattern stands for: "a|b c [d]" -> "a c d", "a c", "b c d", "b c"."""
    slots = []
    for slot in pattern.split():
        optional = slot.startswith("[") and slot.endswith("]")
        options = slot.strip("[]").split("|")
        slots.append(options + [""] if optional else options)
    return [" ".join(word for word in words if word) for words in product(*slots)]


_ENGLISH: dict[tuple[str, float], tuple[str, ...]] = {
    ("happy", PLAIN): (
        "over the moon", "walking|walked on air", "on top of the world", "in high|good|great spirits",
        "in a great|good|fine|fantastic|wonderful|cheerful|happy|sunny mood", "thrilled to pieces",
        "grinning|grinned from ear to ear", "happy as a clam|lark", "full of joy", "tears of joy",
        "having a blast", "pleased as punch", "in seventh heaven", "couldn't|could not be happier",
        "full of beans", "laughing out loud", "in a celebrating|celebratory mood",
    ),
    ("angry", PLAIN): (
        "fed up", "at the end of my rope|tether", "up in arms", "fly|flew|flying|flies off the handle",
        "at my wits' end", "at my wits end", "pissed off", "sick and tired", "boiling with rage",
        "ready to explode", "in a foul|bad|rotten|terrible|nasty mood", "hit|hits|hitting the roof",
        "flip|flipped|flipping|flips my lid", "my blood is boiling", "blood boiling", "on the warpath",
        "out of patience", "lost|losing|lose my patience", "had enough", "had it up to here",
        "steaming mad", "boiling mad",
    ),
    ("sad", PLAIN): (
        "down in the dumps", "down in the mouth", "feeling|feel|feels blue|down|low",
        "on the verge of tears", "close to tears", "heart is broken", "a lump in my throat",
        "cry|crying|cried my eyes out", "sick at heart", "my heart sank", "down and out", "at a low ebb",
        "in mourning", "broken heart",
    ),
    ("surprised", PLAIN): (
        "caught [completely|totally|entirely] off guard", "can't|cannot|couldn't believe it|this|that",
        "could not believe it|this|that", "no way", "taken|caught by surprise", "mind blown",
        "blown away", "lost for words", "at a loss for words", "knocked for six", "bowled over",
        "who would have thought", "what on earth", "oh my god|gosh", "you're kidding", "are you kidding",
    ),
    ("fearful", PLAIN): (
        "hair standing|stands|stood on end", "hair is standing on end", "chills|shivers down my spine",
        "a nervous wreck", "freaking|freaked|freak out", "on pins and needles", "blood ran|runs cold",
        "in a cold sweat", "jump|jumped|jumping out of my skin", "weak at the knees", "goosebumps",
        "afraid for my life", "butterflies in my stomach",
    ),
    ("disgusted", PLAIN): (
        "makes|made me want to throw up|puke|vomit", "want to throw up|puke|vomit", "makes|made me sick",
        "sick to my stomach", "makes|made me gag", "can't|cannot stand it|this|that",
        "look|looking|looked down on", "turn|turns|turned my nose up",
    ),
    ("neutral", 0.0): (
        "in a normal|neutral|even|level|plain|flat|calm tone|voice", "just the facts", "straight face",
        "poker face", "as it is", "read it straight", "keep it neutral",
    ),
}

_CHINESE: dict[tuple[str, float], str] = {
    ("happy", PLAIN): "兴高采烈 欢天喜地 喜气洋洋 满心欢喜 喜笑颜开 手舞足蹈 眉飞色舞 心满意足 喜上眉梢 春风得意 "
                      "笑容满面 喜不自胜 乐在其中 心旷神怡 洋洋得意 喜形于色 满面春风 开怀大笑 哈哈大笑 "
                      "喜出望外 心花怒放",
    ("angry", PLAIN): "怒气冲天 大发雷霆 气急败坏 恼羞成怒 怒火中烧 怒发冲冠 怒目而视 横眉竖眼 横眉冷对 义愤填膺 "
                      "忍无可忍 气势汹汹 拍案而起 破口大骂 怒不可遏",
    ("sad", PLAIN): "泪眼汪汪 痛哭流涕 黯然神伤 愁眉苦脸 万念俱灰 心灰意冷 唉声叹气 愁眉不展 潸然泪下 泣不成声 "
                    "欲哭无泪 无精打采 灰心丧气 黯然泪下 悲从中来 眼泪汪汪 垂头丧气",
    ("sad", STRONG): "痛不欲生 肝肠寸断 悲痛万分",
    ("surprised", PLAIN): "出乎意料 瞠目结舌 意想不到 吓了一跳 出人意料 匪夷所思 大跌眼镜 措手不及 难以想象 "
                          "大吃一惊",
    ("fearful", PLAIN): "战战兢兢 心惊肉跳 惊慌失措 魂飞魄散 不寒而栗 惴惴不安 心惊胆战 惶惶不安 惊弓之鸟 "
                        "胆小如鼠 六神无主 忐忑不安 如履薄冰 噤若寒蝉 毛骨悚然",
    ("fearful", WEAK): "七上八下",
    ("disgusted", PLAIN): "令人恶心 深恶痛绝 不屑一顾 令人厌恶 不堪入目 臭不可闻",
    ("neutral", 0.0): "若无其事 不紧不慢 不温不火 波澜不惊 淡定自若 从容不迫 镇定自若 平平常常 平淡无奇",
}

#: phrase -> (emotion, inherent intensity)
PHRASES: dict[str, tuple[str, float]] = {
    **{phrase: key for key, patterns in _ENGLISH.items() for pattern in patterns for phrase in expand(pattern)},
    **{idiom: key for key, idioms in _CHINESE.items() for idiom in idioms.split()},
}

#: Characters that carry an emotion inside an idiom that is not listed. 气 is left out on
#: purpose: it is anger in 气愤 but breath, air or mood in 语气, 天气, 喜气, 心平气和.
IDIOM_MORPHEMES = {
    **dict.fromkeys("怒愤恼", "angry"),
    **dict.fromkeys("悲哀泪愁泣哭忧凄伤", "sad"),
    **dict.fromkeys("恐惧悚栗怕吓慌畏怯惶", "fearful"),
    **dict.fromkeys("惊愕讶诧", "surprised"),
    **dict.fromkeys("喜欢乐笑悦欣", "happy"),
    **dict.fromkeys("呕嫌厌鄙憎", "disgusted"),
}
#: a morpheme of joy right after one of these means its absence: 不乐, 寡欢 are sad
JOY_NEGATORS = set("不寡无没难少")
#: in one idiom, fear outweighs startle: 惊慌, 惊恐 are fear
MORPHEME_PRECEDENCE = {"fearful": 2}

#: emotion verbs that take a result after them: 吓坏, 气疯, 惊呆, 哭肿 (read when not listed)
EMOTION_VERBS = {"吓": "fearful", "气": "angry", "惊": "surprised", "哭": "sad", "乐": "happy", "笑": "happy",
                 "怒": "angry", "悲": "sad"}
VERB_RESULTS = set("坏死炸疯呆傻哭肿醒跑翻懵晕住")
#: an emotion morpheme before a word for face or look names that look: 愁容, 怒色, 笑脸
FACE_NOUNS = set("容颜脸色")
