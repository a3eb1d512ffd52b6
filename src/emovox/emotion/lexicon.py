"""The words the prompt parser reads: emotion words, degree words, negations, controls.

Single words here (and Chinese set words); English multiword expressions are in
`phrases.py`, Chinese idioms in `idioms.py`. Each emotion word
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
        table[word.replace("_", " ")] = (emotion, strength)


# English ---------------------------------------------------------------------------------
add_words(EMOTION_WORDS, "happy", PLAIN,
          "happy happily happiness joy joyful joyfully joyous glad gladly cheerful cheerfully cheery merry "
          "upbeat pleased delighted content contented bright playful excited exciting excitement enthusiastic "
          "jolly jovial gleeful gleefully buoyant bubbly chipper sunny smiling grinning laughing laughter "
          "lighthearted light-hearted carefree blissful blithe radiant proud hopeful "
          "optimistic grateful thankful festive celebratory triumphant delight delightful "
          "happier happiest gladder merrier cheerier "
          "chuffed giddy beaming stoked psyched pumped jazzed tickled glowing mirthful glee bliss blessed "
          "cheered heartened uplifted buoyed victorious celebrating cheering chuckling giggling giggly "
          "smiley smile smiles grin grins laugh laughs chirpy perky peppy sprightly spirited lively vivacious "
          "zestful enthused eager merrily happy-go-lucky gratified pleasure thrilling fun joking jokey "
          "hooray yay woohoo yippee whee hurray lovely wonderful fantastic awesome")
add_words(EMOTION_WORDS, "happy", WEAK,
          "pleasant satisfied amused relieved friendly content contentment fulfilled warm warmly "
          "heartwarming touched comfortable")
add_words(EMOTION_WORDS, "happy", STRONG,
          "ecstatic overjoyed elated thrilled jubilant euphoric exhilarated rapturous exuberant ecstatically "
          "exultant euphoria rapture delirious blissed-out")
add_words(EMOTION_WORDS, "angry", PLAIN,
          "angry angrily anger mad cross hostile frustrated frustration outraged indignant resentful "
          "agitated heated incensed exasperated riled provoked aggressive fierce stern harsh snappy "
          "hot-headed hot-tempered short-tempered bad-tempered belligerent seething angrier angriest madder "
          "outrage indignation resentment steamed snarling snarl snapping ranting raving yelling bristling "
          "huffy huffing affronted offended insulted aggravated infuriating maddening maddened enraging "
          "ticked pissed ratty stroppy shirty surly scowling scowl glaring glare glowering growling snarly "
          "disgruntled antagonized antagonistic combative confrontational spiteful vindictive vengeful "
          "wrath ire irate irked riled-up worked-up hateful hate hatred hating rant temper temperamental "
          "bitter bitterly sulky argumentative defiant fiery")
add_words(EMOTION_WORDS, "angry", WEAK,
          "annoyed irritated grumpy peeved miffed testy cranky grouchy impatient vexed irritable "
          "annoying irritating bothered displeased irked nettled piqued put-out crabby tetchy snippy "
          "prickly touchy cantankerous ornery churlish grumbling grumbly bugged impatiently annoyance "
          "irritation exasperation")
add_words(EMOTION_WORDS, "angry", STRONG,
          "furious furiously rage raging enraged livid irate fuming infuriated wrathful incandescent "
          "apoplectic fury berserk ballistic murderous rabid seething")
add_words(EMOTION_WORDS, "sad", PLAIN,
          "sad sadly sadness unhappy unhappily sorrow sorrowful gloomy melancholy melancholic upset blue "
          "mournful tearful crying grieving grief depressed disappointed lonely dejected downcast "
          "downhearted despondent forlorn glum morose somber sombre weepy teary weeping sobbing "
          "doleful woeful wretched hurt regretful remorseful sorry hopeless dismal mopey moping "
          "heartsick heartache sullen sadder saddest lonelier tears cry cries "
          "sob sobs mourning bummed crestfallen disheartened discouraged dispirited deflated defeated "
          "demoralized demoralised heavy-hearted heavyhearted bereaved bereft lamenting dreary bleak "
          "lonesome homesick rueful woebegone saddened teary-eyed blubbering whimpering sniffling sulking "
          "helpless wounded downbeat lugubrious plaintive mournfully low-spirited down-hearted sighing sigh sighs "
          "weep weeps wept cried mourn grieve lament gloom misery sorrowfully tearfully dejection "
          "depression disappointment loneliness regret despondency glumly forlornly wistfully longing "
          "pining heartbreak wistful")
add_words(EMOTION_WORDS, "sad", WEAK, "down nostalgic pensive subdued melancholic wistful blah meh mopey")
add_words(EMOTION_WORDS, "sad", STRONG,
          "heartbroken heartbreaking miserable devastated despairing despair anguished anguish "
          "inconsolable distraught grief-stricken broken-hearted crushed shattered gutted desolate "
          "disconsolate heart-wrenching heartrending suicidal wailing bawling")
add_words(EMOTION_WORDS, "surprised", PLAIN,
          "surprised surprise surprising amazed astonished shocked stunned astounded wow unexpected "
          "unexpectedly incredulous startled dumbfounded flabbergasted staggered speechless "
          "awestruck awed agape whoa disbelief disbelieving unbelievable incredible amazing astonishing "
          "astounding shocking amazement astonishment gobsmacked dumbstruck thunderstruck stupefied floored "
          "agog wonderstruck marvelling marveling blindsided jolted shock woah omg wowed mind-blown "
          "mind-blowing open-mouthed wide-eyed dazed whoah gasp gasping gasped")
add_words(EMOTION_WORDS, "surprised", WEAK,
          "bewildered baffled puzzled nonplussed perplexed mystified confused curious wondering huh")
add_words(EMOTION_WORDS, "fearful", PLAIN,
          "scared afraid fear fearful fearfully frightened panic panicking panicked alarmed horrified "
          "frightful shaky trembling shaking quivering skittish fright terror "
          "creepy eerie spooky threatened intimidated dread dreadful distressed frightening "
          "scary scarier scariest fearing panicky jittery jumpy twitchy nervy spooked shivering quaking "
          "cowering cowed timorous fainthearted cowardly rattled shaken unnerved unsettled frantic "
          "frantically paranoid phobic dreading foreboding daunted aghast haunted fright-stricken "
          "sinister chilling bloodcurdling hair-raising spine-chilling nerve-racking nerve-wracking "
          "harrowing fearsome alarming menacing ominous creeped-out freaked-out afeared yikes eek "
          "horror trembled trembles tremble shivers shudder shuddering "
          "nightmare nightmarish")
add_words(EMOTION_WORDS, "fearful", WEAK, "monster monsters ghost ghosts zombie zombies intruder stalker")
add_words(EMOTION_WORDS, "fearful", WEAK,
          "nervous nervously anxious anxiously worried uneasy tense apprehensive edgy wary timid "
          "worrying anxiety concerned fretful fretting antsy restless stressed stressed-out insecure "
          "worry worries nervousness unease jitters hesitant hesitantly")
add_words(EMOTION_WORDS, "fearful", STRONG,
          "terrified petrified terror-stricken horror-stricken panic-stricken terrifying horrifying "
          "horror-struck terror-struck panic-struck")
add_words(EMOTION_WORDS, "disgusted", PLAIN,
          "disgust disgusted disgusting gross revolted repulsed sickened nauseated yuck contempt disdain "
          "repulsive repugnant nauseous sickening foul icky yucky ew eww ewww "
          "loathing loathe loathsome abhorrent odious distaste distasteful appalled scornful "
          "contemptuous sneering disdainful gag gagging grossed_out repelled revolting nauseating scorn "
          "sneer derisive derision detest detestable abhor vile nasty filthy slimy ugh blech bleh "
          "retching vomit-inducing stomach-churning stomach-turning unsavory unsavoury unappetizing "
          "rancid putrid rotten fetid stinking stinky smelly reeking repellent sordid sleazy skeevy "
          "grody cringe cringey cringy cringing cringeworthy disgustedly appalling grossly gross-out "
          "repulsion revulsion scornfully contemptuously sneeringly loathed queasily retch retched retches")
add_words(EMOTION_WORDS, "disgusted", WEAK, "queasy squeamish yuk sarcastic sarcastically snarky snide")
add_words(EMOTION_WORDS, "neutral", 0.0,
          "neutral neutrally calm calmly plain plainly normal normally flat monotone relaxed steady "
          "composed matter-of-fact even evenly impassive deadpan emotionless expressionless unemotional "
          "dispassionate detached measured level-headed serene tranquil peaceful placid objective "
          "objectively factual informative businesslike neutral-sounding natural naturally ordinary usual "
          "casual casually robotic mechanical professional formal indifferent unmoved stoic "
          "matter-of-factly unexcited unbothered narrator narration documentary lecture audiobook "
          "stoical poker-faced straight-faced dry dryly drily understated restrained reserved cool coolly "
          "collected unruffled unflappable unperturbed nonchalant nonchalantly apathetic bored sober "
          "soberly plainspoken straightforward informational newsreader newscaster anchor announcer "
          "broadcaster reporter lecturer robot automaton default standard regular everyday "
          "conversational clinical balanced moderate mellow laid-back chill easygoing unhurried "
          "uninflected affectless colorless colourless toneless bland unaffected composedly serenely "
          "calmness neutrality monotonous monotonously unemotionally impassively dispassionately "
          "flatly levelly newsy announcement bulletin")

# Chinese ---------------------------------------------------------------------------------
add_words(EMOTION_WORDS, "happy", PLAIN,
          "开心 高兴 快乐 愉快 喜悦 欢快 欢乐 愉悦 兴奋 激动 开朗 喜 乐 欢喜 欣喜 幸福 甜蜜 得意 痛快 舒畅 "
          "畅快 乐观 活泼 轻快 欢欣 欢腾 喜庆 雀跃 笑 微笑 欢笑 大笑 笑着 笑眯眯 笑嘻嘻 笑呵呵 乐呵呵 "
          "乐滋滋 喜滋滋 美滋滋 高高兴兴 开开心心 快快乐乐 欢欢喜喜 心情好 心情大好 好心情 阳光 "
          "兴致勃勃 欢声笑语 乐呵 喜洋洋 爽 爽快 欢愉 欢畅 乐颠颠 乐陶陶 笑哈哈 哈哈 嘻嘻 嘿嘿 开怀 "
          "欣然 自豪 骄傲 得意洋洋 甜 甜甜 甜丝丝 美好 兴冲冲 亢奋 振奋 欢呼 喝彩 庆祝 狂欢 嗨 嗨皮 开森 "
          "好开心 真开心 欢 欢快地 开心地 高兴地 喜欢 "
          "笑盈盈 笑吟吟 笑容 笑脸 美美 乐开花 乐开了花 笑开花 笑开了花 喜滋滋地 乐乐 哈哈哈 好棒 太棒了 耶")
add_words(EMOTION_WORDS, "happy", WEAK,
          "欣慰 满足 满意 愉快地 轻松愉快 热情 温暖 舒服 舒坦 惬意 自在 庆幸 感激 感恩 暖心 温馨 轻松 "
          "悠然自得 怡然自得 暖暖")
add_words(EMOTION_WORDS, "happy", STRONG, "狂喜 大喜 喜极而泣")
add_words(EMOTION_WORDS, "angry", PLAIN,
          "生气 愤怒 气愤 恼火 发火 火大 不爽 怒 气 愤恨 愤慨 恼怒 动怒 发怒 暴躁 急躁 气人 "
          "冒火 窝火 上火 怒气 火气 怨恨 憎恨 气呼呼 气鼓鼓 气冲冲 凶 凶巴巴 恶狠狠 骂 吼 "
          "咆哮 怒吼 责骂 训斥 愤愤 怒冲冲 抓狂 发飙 光火 来气 恨 恼 愤然 怒气冲冲 气哼哼 急眼 炸毛 "
          "暴走 翻脸 吵架 争吵 骂人 大骂 怒骂 臭骂 痛骂 斥责 呵斥 喝斥 怒斥 咒骂 痛恨 仇恨 记恨 "
          "忿忿 愤愤不平 忿忿不平 嗔怒 责怪 指责 质问 凶狠 狠狠 怒视 瞪眼 "
          "拍桌子 摔门 跺脚 激愤 悲愤 义愤 愤懑 怒火 发脾气 闹脾气 可恶 该死 混蛋 岂有此理 欺人太甚 "
          "一肚子火 一肚子气 满肚子火 憋着火 火冒 怒容 恼羞 冲人 凶狠狠 狠狠地 吵 嚷 吼叫 大吼 "
          "受够了 忍不了 够了 滚 闭嘴 可气 气不过 暴脾气 发怒地 生气地 愤怒地")
add_words(EMOTION_WORDS, "angry", WEAK,
          "烦 烦躁 不耐烦 不满 烦人 恼人 不悦 埋怨 抱怨 没好气 闹心 憋屈 过分 太过分了 "
          "怨气 怨 牢骚 发牢骚 嫌烦 心烦 不爽快 恼火地 数落")
add_words(EMOTION_WORDS, "angry", STRONG, "暴怒 狂怒 震怒 盛怒 大怒 怒不可遏 怒火冲天 暴跳如雷 火冒三丈")
add_words(EMOTION_WORDS, "sad", PLAIN,
          "难过 伤心 悲伤 沮丧 失落 忧伤 哀伤 低落 哭 悲 委屈 难受 心碎 忧郁 郁闷 惆怅 心酸 辛酸 伤感 "
          "悲哀 悲凉 凄凉 凄惨 哀愁 忧愁 发愁 愁 哭泣 抽泣 哽咽 流泪 落泪 掉眼泪 泪 消沉 颓废 颓丧 灰心 "
          "失望 遗憾 孤独 寂寞 无助 可怜 哭腔 哭着 想哭 泪汪汪 黯然 悲切 心痛 心疼 苦闷 忧 惨 凄 哀 "
          "愁苦 悲苦 难过地 伤心地 不开心 不高兴 不快乐 不愉快 哭哭啼啼 心塞 憋闷 压抑 悲戚 凄楚 酸楚 "
          "苦涩 痛心 揪心 失恋 啜泣 抽噎 呜咽 哭丧 哭丧着脸 丧 丧气 emo 孤单 孤寂 凄清 叹气 叹息 哀叹 "
          "悲叹 舍不得 不舍 离别 悲催 后悔 懊悔 内疚 愧疚 自责 忧郁地 愁闷 犯愁 怅惘 泪人 泪崩 哭惨 "
          "心里难受 不是滋味 心里不是滋味 没精神 蔫 蔫了 鼻酸 鼻子一酸 眼圈红 红了眼眶 眼眶湿润 "
          "可怜兮兮 委屈巴巴 含泪 含着泪 哭了 哭出来 呜呜 唉 心累 心凉 心寒 悲悲切切 凄凄惨惨 悲伤地 "
          "眼泪 泪水 泪光 哭哭 黯然神伤 郁郁寡欢 闷闷不乐 落寞 寂寥")
add_words(EMOTION_WORDS, "sad", WEAK, "怀念 感伤 惋惜 怅然 无奈 感慨 思念 想念 可惜 惭愧 遗憾地 淡淡的忧伤")
add_words(EMOTION_WORDS, "sad", STRONG, "悲痛 绝望 痛苦 悲恸 哀痛 痛哭 沉痛 崩溃 心如死灰 生无可恋 嚎啕 号啕 "
          "撕心裂肺 痛彻心扉 心如刀割 心如刀绞 伤心欲绝 悲痛欲绝")
add_words(EMOTION_WORDS, "surprised", PLAIN,
          "没料到 没预料到 料不到 始料不及 惊讶 吃惊 惊奇 意外 诧异 惊喜 惊 惊异 惊叹 惊愕 愕然 错愕 不可思议 不敢相信 "
          "想不到 竟然 天哪 天啊 我的天 怎么可能 吓一跳 惊掉下巴 出人意料 居然 没想到 万万没想到 "
          "难以置信 不敢置信 愣住 愣 发愣 傻眼 懵 懵了 懵圈 蒙了 呆住 呆了 惊住 震撼 哇 "
          "哇塞 我去 卧槽 天呐 我的天哪 我的妈呀 妈呀 哎呀 讶异 骇然 哗然 惊诧 不会吧 真的假的 怎么会 "
          "瞪大眼睛 睁大眼睛 看呆了 看傻了 下巴都掉了 惊掉了下巴 目瞪口呆 呆若木鸡 张口结舌 瞪目结舌 "
          "一脸懵 一脸震惊 做梦也没想到 怎么也没想到 真没想到 竟 惊讶地 吃惊地 惊奇地 意外地")
add_words(EMOTION_WORDS, "surprised", WEAK, "咦 疑惑 纳闷 好奇 奇怪 莫名其妙 诶")
add_words(EMOTION_WORDS, "surprised", STRONG, "震惊 震惊不已 大吃一惊 目瞪口呆")
add_words(EMOTION_WORDS, "fearful", PLAIN,
          "害怕 恐惧 惊恐 畏惧 惊慌 恐慌 怕 吓 可怕 恐怖 吓人 发抖 颤抖 哆嗦 战栗 "
          "心慌 慌 慌张 慌乱 胆怯 胆小 惶恐 惊悚 惊惧 恐 怯 怯生生 瑟瑟发抖 害怕地 提心吊胆 "
          "发毛 瘆 瘆人 瘆得慌 毛毛的 发怵 犯怵 怵 胆寒 心虚 发慌 慌神 着慌 慌了 惊惶 "
          "吓得 阴森 阴森森 骇人 吓唬 惊魂 打颤 打哆嗦 颤栗 冒冷汗 冷汗 出冷汗 腿软 腿发软 手抖 "
          "心跳加速 后怕 后背发凉 背脊发凉 脊背发凉 头皮发麻 鸡皮疙瘩 起鸡皮疙瘩 汗毛倒竖 寒毛直竖 "
          "救命 噩梦 恶梦 心悸 惊悸 吓人的 恐怖的 不敢 惊慌地 恐惧地 "
          "哆哆嗦嗦 颤颤巍巍 战战兢兢 胆战心惊 心惊胆战 心惊肉跳 毛骨悚然 魂飞魄散 胆小鬼")
add_words(EMOTION_WORDS, "fearful", WEAK,
          "紧张 担心 不安 忐忑 焦虑 担忧 忧虑 心神不宁 坐立不安 忧心 惴惴 悬着 紧张兮兮 发慌地 "
          "心里没底 没底 慌慌的 不踏实 局促 拘谨 怯场")
add_words(EMOTION_WORDS, "fearful", STRONG, "吓破胆 吓得半死 吓得要命 魂不附体 惊恐万分")
add_words(EMOTION_WORDS, "disgusted", PLAIN,
          "厌恶 恶心 嫌弃 讨厌 反感 憎恶 嫌 想吐 倒胃口 鄙视 鄙夷 不屑 唾弃 嫌恶 厌烦 腻 呸 "
          "脏死 臭 臭死 膈应 犯恶心 恶心巴拉 恶心吧啦 恶寒 肮脏 反胃 作呕 干呕 呕吐 要吐了 吐了 硌硬 "
          "起腻 腻歪 腻味 腻烦 嗤之以鼻 不齿 轻蔑 蔑视 看不起 瞧不起 看不上 啐 恶臭 臭烘烘 腥臭 "
          "油腻 辣眼睛 可憎 恶心人 真恶心 嫌脏 讨人嫌 惹人嫌 招人烦 厌弃 鄙弃 龌龊 猥琐 下流 嫌弃地 "
          "厌恶地 鄙夷地 不屑地 想呕 呕 脏兮兮 臭气熏天 令人作呕 令人恶心 令人厌恶 "
          "嫌恶地 嗤笑 冷笑 白眼 翻白眼 捏着鼻子 捂着鼻子 掩鼻 一脸嫌弃 满脸嫌弃")
add_words(EMOTION_WORDS, "disgusted", WEAK, "嫌麻烦 不喜欢 挖苦 讽刺 阴阳怪气 冷嘲热讽")
add_words(EMOTION_WORDS, "neutral", 0.0,
          "平静 冷静 中性 正常 平淡 淡定 平和 平稳 平常 日常 自然 客观 理性 镇定 沉着 从容 淡然 "
          "天气预报 纪录片 旁白 讲课 朗读 宣读 说明书 冷淡 面无表情 无表情 机械 机器人 念稿 一本正经 心平气和 平铺直叙 "
          "不动声色 平平淡淡 平心静气 温和 平静地 正常地 平缓 中立 播音 播音员 主持人 新闻 新闻联播 播报 "
          "念新闻 读新闻 播新闻 朗诵 陈述 叙述 讲述 解说 讲解 报告 汇报 公事公办 就事论事 一板一眼 字正腔圆 "
          "冷静地 客观地 淡淡地 平淡地 面不改色 若无其事 无动于衷 漠然 冷漠 冷冰冰 机械地 平板 单调 呆板 "
          "官方 正式 严肃 庄重 稳重 沉稳 认真 淡漠 冷淡地 平常心 如常 照常 一如既往 普通 正经 "
          "念 读 念一下 读一下 播 讲 说明 介绍 口吻 语调平稳 不疾不徐 慢条斯理 娓娓道来 有条不紊 四平八稳 "
          "泰然自若 神色自若 气定神闲 处之泰然 心如止水 镇静 安静 宁静 默念 导航 客服 广播 通知 公告")

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
    # one word at 1.0, so that "not the least bit cheerful" keeps "not" within its reach
    "the least bit": 1.0, "the slightest bit": 1.0, "in the least": 1.0,
    "a smidge": 0.45, "a smidgen": 0.45, "sorta": 0.6, "low-key": 0.6, "lowkey": 0.6, "ever so slightly": 0.35,
    "a bit less": 0.5, "less": 0.6, "only slightly": 0.4, "just slightly": 0.4, "somewhat less": 0.5,
    "real": 1.2, "dead": 1.3, "bloody": 1.3, "damn": 1.3, "freaking": 1.35, "fricking": 1.35, "hella": 1.4,
    "mega": 1.4, "way": 1.3, "overly": 1.3, "excessively": 1.35, "remarkably": 1.3, "particularly": 1.25,
    "especially": 1.25, "unbelievably": 1.45, "amazingly": 1.35, "astonishingly": 1.4, "surprisingly": 1.2,
    "horribly": 1.4, "dreadfully": 1.4, "frightfully": 1.4, "desperately": 1.4, "painfully": 1.35,
    "majorly": 1.4, "ridiculously": 1.45, "positively": 1.3, "beyond": 1.4, "more than a little": 1.3,
    "ever so": 1.3, "simply": 1.2, "just so": 1.3, "all": 1.15, "visibly": 1.2, "openly": 1.15,
    "有点点": 0.45, "一点点": 0.45, "稍许": 0.45, "稍有": 0.5, "颇": 1.2, "颇为": 1.2, "蛮": 1.15, "怪": 1.15,
    "可": 1.25, "真的": 1.25, "真心": 1.2, "倍儿": 1.4, "最": 1.4, "越来越": 1.2, "愈发": 1.2, "越发": 1.2,
    "十二分": 1.5, "深深": 1.3, "深深地": 1.3, "好生": 1.3, "非常非常": 1.5, "特别特别": 1.5, "老": 1.15,
    "有那么一点": 0.45, "有那么点": 0.45, "稍显": 0.5, "略显": 0.5, "多少有点": 0.5, "多少有些": 0.55,
}

#: degree words that follow what they strengthen: 恶心死了, 开心极了, "scared to death"
AFTER_DEGREE_WORDS = {
    "死了": 1.4, "死": 1.4, "极了": 1.45, "透了": 1.4, "坏了": 1.3, "得要命": 1.45, "得不得了": 1.45,
    "得很": 1.25, "到极点": 1.5, "万分": 1.5, "至极": 1.5, "不已": 1.3, "要死": 1.4, "炸了": 1.4,
    "to death": 1.4, "beyond words": 1.4, "beyond belief": 1.4, "as hell": 1.4, "like crazy": 1.35,
    "to the core": 1.35, "to the bone": 1.35, "out of my mind": 1.4, "out of my wits": 1.4,
    "through the roof": 1.35, "half to death": 1.35, "stiff": 1.35, "silly": 1.3, "witless": 1.35,
    "to bits": 1.3, "to pieces": 1.3, "beyond measure": 1.4, "like never before": 1.3, "out of my skull": 1.4,
    "得要死": 1.45, "得不行": 1.4, "疯了": 1.4, "爆了": 1.4, "透顶": 1.45, "之极": 1.5, "半死": 1.4,
    "死我了": 1.4, "得慌": 1.1, "无比": 1.5, "到爆": 1.45, "到不行": 1.4, "得发疯": 1.4, "坏": 1.3,
}

NEGATIONS = {
    "not", "no", "never", "isn't", "aren't", "wasn't", "weren't", "don't", "doesn't", "didn't",
    "without", "nor", "neither", "no longer", "not at all", "hardly", "none", "nothing", "lacking",
    "zero",
    "不", "没", "没有", "别", "不要", "并不", "毫不", "一点也不", "一点都不", "不是", "不太", "不怎么",
    "毫无", "无", "从不", "并没有", "一点儿也不", "一点儿都不", "丝毫不", "丝毫没有", "绝不", "不再",
    "不用", "不必", "不带", "没什么", "别太", "不会",
    "not really", "not even", "far from", "free of", "devoid of", "don't be", "stop being", "nowhere near",
    "不算", "算不上", "谈不上", "并非", "未", "并未", "从未", "没那么", "不那么", "不至于", "不必太", "别那么"}

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
