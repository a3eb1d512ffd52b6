"""The words the prompt parser reads: emotion words, degree words, negations, controls.

Single words here; multiword expressions and idioms are in `idioms.py`. Each emotion word
carries its own inherent strength, so "furious" is stronger than "annoyed". The lists are
grouped by class (near-synonyms of each emotion, at three strengths), not by the prompts
they were tried on: a word belongs here because it names the feeling, wherever it appears.
"""

from __future__ import annotations

#: word -> (emotion, inherent intensity)
EMOTION_WORDS: dict[str, tuple[str, float]] = {}

WEAK, PLAIN, STRONG = 0.45, 0.7, 0.95


def add_words(table: dict[str, tuple[str, float]], emotion: str, strength: float, words: str) -> None:
    """Add whitespace-separated words; "_" inside a word stands for a space."""
    for word in words.split():
        table[word.replace("_", "")] = (emotion, strength)


# English ---------------------------------------------------------------------------------
add_words(EMOTION_WORDS, "happy", PLAIN,
          "happy happily happiness joy joyful joyfully joyous glad gladly cheerful cheerfully cheery merry "
          "upbeat pleased delighted content contented bright playful excited exciting excitement enthusiastic "
          "jolly jovial gleeful gleefully buoyant bubbly chipper sunny smiling grinning laughing laughter "
          "lighthearted light-hearted carefree blissful blithe radiant proud hopeful "
          "optimistic grateful thankful festive celebratory triumphant delight delightful gleeful "
          "happier happiest gladder merrier cheerier")
add_words(EMOTION_WORDS, "happy", WEAK, "pleasant satisfied amused relieved friendly")
add_words(EMOTION_WORDS, "happy", STRONG,
          "ecstatic overjoyed elated thrilled jubilant euphoric exhilarated rapturous exuberant ecstatically")
add_words(EMOTION_WORDS, "angry", PLAIN,
          "angry angrily anger mad cross hostile frustrated frustration outraged indignant resentful "
          "agitated heated incensed exasperated riled provoked aggressive fierce stern harsh snappy "
          "hot-headed hot-tempered short-tempered bad-tempered belligerent seething angrier angriest madder "
          "outrage indignation resentment")
add_words(EMOTION_WORDS, "angry", WEAK,
          "annoyed irritated grumpy peeved miffed testy cranky grouchy impatient vexed irritable "
          "annoying irritating bothered displeased")
add_words(EMOTION_WORDS, "angry", STRONG,
          "furious furiously rage raging enraged livid irate fuming infuriated wrathful incandescent "
          "apoplectic fury")
add_words(EMOTION_WORDS, "sad", PLAIN,
          "sad sadly sadness unhappy unhappily sorrow sorrowful gloomy melancholy melancholic upset blue "
          "mournful tearful crying grieving grief depressed down disappointed lonely dejected downcast "
          "downhearted despondent forlorn glum morose somber sombre weepy teary weeping sobbing "
          "doleful woeful wretched hurt regretful remorseful sorry hopeless dismal mopey moping "
          " heartsick heartache sullen sadder saddest lonelier tears cry cries "
          "sob sobs mourning")
add_words(EMOTION_WORDS, "sad", WEAK, "nostalgic pensive subdued")
add_words(EMOTION_WORDS, "sad", STRONG,
          "heartbroken heartbreaking miserable devastated despairing despair anguished anguish "
          "inconsolable distraught grief-stricken broken-hearted crushed")
add_words(EMOTION_WORDS, "surprised", PLAIN,
          "surprised surprise surprising amazed astonished shocked stunned astounded wow unexpected "
          "unexpectedly incredulous startled dumbfounded flabbergasted staggered speechless "
          "awestruck awed agape whoa disbelief disbelieving unbelievable incredible amazing astonishing "
          "astounding shocking amazement astonishment surprisingly")
add_words(EMOTION_WORDS, "surprised", WEAK, "bewildered baffled puzzled")
add_words(EMOTION_WORDS, "fearful", PLAIN,
          "scared afraid fear fearful fearfully frightened panic panicking panicked alarmed horrified "
          "frightful shaky trembling shaking quivering skittish fright terror "
          "creepy eerie spooky threatened intimidated dread dreadful distressed frightening "
          "scary scarier scariest fearing panicky")
add_words(EMOTION_WORDS, "fearful", WEAK,
          "nervous nervously anxious anxiously worried uneasy tense apprehensive edgy wary timid "
          "worrying anxiety")
add_words(EMOTION_WORDS, "fearful", STRONG,
          "terrified petrified terror-stricken horror-stricken panic-stricken terrifying horrifying")
add_words(EMOTION_WORDS, "disgusted", PLAIN,
          "disgust disgusted disgusting gross revolted repulsed sickened nauseated yuck contempt disdain "
          " repulsive repugnant nauseous sickening foul icky yucky ew "
          " loathing loathe loathsome abhorrent odious distaste distasteful appalled scornful "
          "contemptuous sneering disdainful gag gagging grossed_out")
add_words(EMOTION_WORDS, "disgusted", WEAK, "queasy squeamish")
add_words(EMOTION_WORDS, "neutral", 0.0,
          "neutral neutrally calm calmly plain plainly normal normally flat monotone relaxed steady "
          "composed matter-of-fact even evenly impassive deadpan emotionless expressionless unemotional "
          "dispassionate detached measured level-headed serene tranquil peaceful placid objective "
          "objectively factual informative businesslike neutral-sounding natural naturally ordinary usual "
          "casual casually robotic mechanical professional formal indifferent unmoved stoic "
          "matter-of-factly unexcited unbothered narrator narration documentary lecture audiobook")

# Chinese ---------------------------------------------------------------------------------
add_words(EMOTION_WORDS, "happy", PLAIN,
          "开心 高兴 快乐 愉快 喜悦 欢快 欢乐 愉悦 兴奋 激动 开朗 喜 乐 欢喜 欣喜 幸福 甜蜜 得意 痛快 舒畅 "
          "畅快 乐观 活泼 轻快 欢欣 欢腾 喜庆 雀跃 笑 微笑 欢笑 大笑 笑着 笑眯眯 笑嘻嘻 笑呵呵 乐呵呵 "
          "乐滋滋 喜滋滋 美滋滋 高高兴兴 开开心心 快快乐乐 欢欢喜喜 心情好 心情大好 好心情 阳光 "
          "兴致勃勃 欢声笑语")
add_words(EMOTION_WORDS, "happy", WEAK, "欣慰 满足 满意 愉快地 轻松愉快 热情 温暖")
add_words(EMOTION_WORDS, "happy", STRONG, "狂喜 大喜")
add_words(EMOTION_WORDS, "angry", PLAIN,
          "生气 愤怒 气愤 恼火 发火 火大 不爽 怒 气 愤恨 愤慨 恼怒 动怒 发怒 暴躁 急躁 气人 "
          " 冒火 窝火 上火 怒气 火气 怨恨 憎恨 气呼呼 气鼓鼓 气冲冲 凶 凶巴巴 恶狠狠 骂 吼 "
          "咆哮 怒吼 责骂 训斥 愤愤 怒冲冲 抓狂 发飙 光火 来气")
add_words(EMOTION_WORDS, "angry", WEAK, "烦 烦躁 不耐烦 不满 烦人 恼人 不悦 埋怨 抱怨 没好气 闹心")
add_words(EMOTION_WORDS, "angry", STRONG, "暴怒 狂怒 震怒 盛怒 大怒")
add_words(EMOTION_WORDS, "sad", PLAIN,
          "难过 伤心 悲伤 沮丧 失落 忧伤 哀伤 低落 哭 悲 委屈 难受 心碎 忧郁 郁闷 惆怅 心酸 辛酸 伤感 "
          "悲哀 悲凉 凄凉 凄惨 哀愁 忧愁 发愁 愁 哭泣 抽泣 哽咽 流泪 落泪 掉眼泪 泪 消沉 颓废 颓丧 灰心 "
          "失望 遗憾 孤独 寂寞 无助 可怜 哭腔 哭着 想哭 泪汪汪 黯然 悲切 心痛 心疼 苦闷 忧 惨 凄 哀 "
          "愁苦 悲苦 难过地 伤心地 不开心 不高兴 不快乐 不愉快 哭哭啼啼")
add_words(EMOTION_WORDS, "sad", WEAK, "怀念 感伤 落寞 惋惜 怅然")
add_words(EMOTION_WORDS, "sad", STRONG, "悲痛 绝望 痛苦 悲恸 哀痛 痛哭")
add_words(EMOTION_WORDS, "surprised", PLAIN,
          "惊讶 吃惊 惊奇 意外 诧异 惊喜 惊 惊异 惊叹 惊愕 愕然 错愕 不可思议 不敢相信 "
          " 想不到 竟然 天哪 天啊 我的天 怎么可能 吓一跳 惊掉下巴 出人意料")
add_words(EMOTION_WORDS, "surprised", STRONG, "震惊")
add_words(EMOTION_WORDS, "fearful", PLAIN,
          "害怕 恐惧 惊恐 畏惧 惊慌 恐慌 怕 吓 可怕 恐怖 吓人 发抖 颤抖 哆嗦 战栗 "
          "心慌 慌 慌张 慌乱 胆怯 胆小 惶恐 惊悚 惊惧 恐 怯 怯生生 瑟瑟发抖 害怕地 提心吊胆")
add_words(EMOTION_WORDS, "fearful", WEAK, "紧张 担心 不安 忐忑 焦虑 担忧 忧虑 心神不宁 坐立不安")
add_words(EMOTION_WORDS, "fearful", STRONG, "吓破胆")
add_words(EMOTION_WORDS, "disgusted", PLAIN,
          "厌恶 恶心 嫌弃 讨厌 反感 憎恶 嫌 想吐 倒胃口 鄙视 鄙夷 不屑 唾弃 嫌恶 厌烦 腻 呸 "
          " 脏死 臭 臭死 膈应 犯恶心 恶心巴拉 恶心吧啦 恶寒 肮脏")
add_words(EMOTION_WORDS, "neutral", 0.0,
          "平静 冷静 中性 正常 平淡 淡定 平和 平稳 平常 日常 自然 客观 理性 镇定 沉着 从容 淡然 "
          "天气预报 纪录片 旁白 讲课 朗读 宣读 说明书 冷淡 面无表情 无表情 机械 机器人 念稿 一本正经 心平气和 平铺直叙 "
          "不动声色 平平淡淡 平心静气 温和 平静地 正常地 平缓 中立")

#: Nouns for feeling itself: "no emotion", 不带感情, 面无表情 ask for a neutral voice.
FEELING_NOUNS = {"emotion", "emotions", "feeling", "feelings", "expression", "drama", "emphasis",
    "感情", "情绪", "表情", "情感", "感情色彩", "起伏"}

#: degree word before an emotion -> multiplier on its inherent intensity (clipped to 1)
DEGREE_WORDS = {
    "slightly": 0.45, "a little": 0.5, "a bit": 0.5, "a little bit": 0.45, "somewhat": 0.6,
    "kind of": 0.6, "kinda": 0.6, "sort of": 0.6, "mildly": 0.5, "a touch": 0.5, "a tad": 0.5,
    "faintly": 0.4, "barely": 0.3, "rather": 0.8, "quite": 1.15, "pretty": 1.1, "almost": 1.1,
    "a tiny bit": 0.4, "a wee bit": 0.45, "just a bit": 0.45, "just a touch": 0.45, "a hint of": 0.45,
    "a touch of": 0.5, "a trace of": 0.4, "a shade": 0.5, "vaguely": 0.45, "lightly": 0.5, "gently": 0.6,
    "marginally": 0.4, "moderately": 0.7, "fairly": 0.85, "a little too": 0.8,
    "very": 1.3, "really": 1.3, "so": 1.3, "super": 1.4, "truly": 1.3, "deeply": 1.35, "highly": 1.3,
    "incredibly": 1.45, "extremely": 1.5, "totally": 1.4, "absolutely": 1.45, "utterly": 1.45,
    "completely": 1.4, "intensely": 1.45, "terribly": 1.4, "awfully": 1.35, "exceedingly": 1.45,
    "extraordinarily": 1.45, "insanely": 1.45, "hugely": 1.4, "immensely": 1.45, "enormously": 1.45,
    "profoundly": 1.4, "thoroughly": 1.35, "wildly": 1.4, "madly": 1.4, "seriously": 1.3, "too": 1.3,
    "so very": 1.45, "overwhelmingly": 1.5, "genuinely": 1.2, "properly": 1.2, "downright": 1.4,
    "more": 1.2, "even more": 1.35, "most": 1.4,
    "有点": 0.5, "有一点": 0.5, "有些": 0.55, "稍微": 0.45, "略微": 0.45, "略": 0.5, "一点": 0.5,
    "一些": 0.55, "些许": 0.45, "稍": 0.5, "比较": 0.8, "还算": 0.7, "有点儿": 0.5, "有一点儿": 0.5,
    "一点儿": 0.5, "一丝": 0.45, "一丝丝": 0.4, "微微": 0.45, "略有": 0.5, "略带": 0.5, "带点": 0.5,
    "稍稍": 0.45, "些微": 0.45, "小小": 0.6, "有点小": 0.45, "淡淡": 0.5, "隐隐": 0.5,
    "很": 1.25, "挺": 1.15, "真": 1.25, "好": 1.25, "太": 1.4, "非常": 1.4, "特别": 1.4, "十分": 1.4,
    "相当": 1.3, "超级": 1.5, "超": 1.45, "极其": 1.5, "极": 1.5, "万分": 1.5, "格外": 1.4, "无比": 1.5,
    "极度": 1.5, "极为": 1.5, "异常": 1.4, "分外": 1.4, "更": 1.2, "更加": 1.25, "实在": 1.3,
    "简直": 1.3, "真是": 1.25, "巨": 1.45, "贼": 1.4, "超级无敌": 1.5, "无敌": 1.4, "特": 1.35,
    "那么": 1.2, "这么": 1.2, "如此": 1.25, "过于": 1.35, "太过": 1.35, "满心": 1.2, "满怀": 1.2,
}

#: degree words that follow what they strengthen: 恶心死了, 开心极了, "scared to death"
AFTER_DEGREE_WORDS = {
    "死了": 1.4, "死": 1.4, "极了": 1.45, "透了": 1.4, "坏了": 1.3, "得要命": 1.45, "得不得了": 1.45,
    "得很": 1.25, "到极点": 1.5, "万分": 1.5, "至极": 1.5, "不已": 1.3, "要死": 1.4, "炸了": 1.4,
    "to death": 1.4, "beyond words": 1.4, "beyond belief": 1.4, "as hell": 1.4, "like crazy": 1.35,
    "to the core": 1.35, "to the bone": 1.35, "out of my mind": 1.4, "out of my wits": 1.4,
    "through the roof": 1.35,
}

NEGATIONS = {
    "not", "no", "never", "isn't", "aren't", "wasn't", "weren't", "don't", "doesn't", "didn't",
    "without", "nor", "neither", "no longer", "not at all", "hardly", "none", "nothing", "lacking",
    "zero",
    "不", "没", "没有", "别", "不要", "并不", "毫不", "一点也不", "一点都不", "不是", "不太", "不怎么",
    "毫无", "无", "从不", "并没有", "一点儿也不", "一点儿都不", "丝毫不", "丝毫没有", "绝不", "不再",
    "不用", "不必", "不带", "没什么", "别太", "不会"}

#: emotions whose negation means its opposite rather than calm: "not happy" is displeased
NEGATED_AS = {"happy": ("sad", 0.5)}

#: control word -> (field, value): speed factor, pitch semitones, energy dB
CONTROL_WORDS: dict[str, tuple[str, float]] = {
    "faster": ("speed", 1.2), "quickly": ("speed", 1.2), "quick": ("speed", 1.2), "fast": ("speed", 1.2),
    "rapidly": ("speed", 1.25), "hurried": ("speed", 1.2), "hurriedly": ("speed", 1.2),
    "slower": ("speed", 0.8), "slowly": ("speed", 0.8), "slow": ("speed", 0.8),
    "higher": ("pitch_st", 2.5), "high-pitched": ("pitch_st", 3.0), "high pitched": ("pitch_st", 3.0),
    "lower": ("pitch_st", -2.5), "deeper": ("pitch_st", -2.5), "deep": ("pitch_st", -2.0),
    "low": ("pitch_st", -2.0), "low-pitched": ("pitch_st", -2.0),
    "louder": ("energy_db", 4.0), "loud": ("energy_db", 4.0), "loudly": ("energy_db", 4.0),
    "shouting": ("energy_db", 6.0), "quieter": ("energy_db", -4.0), "quiet": ("energy_db", -4.0),
    "quietly": ("energy_db", -4.0), "softer": ("energy_db", -4.0), "softly": ("energy_db", -4.0),
    "whisper": ("energy_db", -6.0), "whispering": ("energy_db", -6.0), "whispered": ("energy_db", -6.0),
    "快": ("speed", 1.2), "快点": ("speed", 1.2), "快一点": ("speed", 1.2), "快些": ("speed", 1.2),
    "慢": ("speed", 0.8), "慢点": ("speed", 0.8), "慢一点": ("speed", 0.8), "慢些": ("speed", 0.8),
    "慢慢": ("speed", 0.8), "慢慢地": ("speed", 0.8),
    "高": ("pitch_st", 2.5), "高一点": ("pitch_st", 2.5), "尖": ("pitch_st", 3.0),
    "低": ("pitch_st", -2.5), "低沉": ("pitch_st", -3.0), "低一点": ("pitch_st", -2.5),
    "大声": ("energy_db", 4.0), "响亮": ("energy_db", 4.0), "大声点": ("energy_db", 4.0),
    "小声": ("energy_db", -4.0), "轻声": ("energy_db", -4.0), "轻柔": ("energy_db", -4.0),
    "压低声音": ("energy_db", -4.0), "低声": ("energy_db", -4.0),
}
