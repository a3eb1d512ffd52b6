"""Chinese idioms (成语) and set phrases for the prompt parser, by emotion, and the rules that
read an idiom that is not listed.

Listed idioms are matched whole on jieba's word boundaries. An unlisted one (three
characters or more, a word of its own) is read by its emotion morphemes
(`IDIOM_MORPHEMES`), so 怒不可遏 would be angry without being listed while 语气 (a word of
its own) is never 生气. Two-character words the lexicon lacks are read as an emotion verb
with its result (吓坏, 气疯) or an emotion with a face (愁容). English phrases are in
`phrases.py`, single words in `lexicon.py`.
"""

from __future__ import annotations

from emovox.emotion.lexicon import PLAIN, STRONG, WEAK

_IDIOMS: dict[tuple[str, float], str] = {
    ("happy", PLAIN): "兴高采烈 欢天喜地 喜气洋洋 满心欢喜 喜笑颜开 手舞足蹈 眉飞色舞 心满意足 喜上眉梢 春风得意 "
                      "笑容满面 喜不自胜 乐在其中 心旷神怡 洋洋得意 喜形于色 满面春风 开怀大笑 哈哈大笑 "
                      "喜出望外 心花怒放 乐不可支 眉开眼笑 笑逐颜开 笑容可掬 喜不自禁 欢欣鼓舞 欢呼雀跃 载歌载舞 "
                      "神采飞扬 容光焕发 心情舒畅 大喜过望 如愿以偿 得意忘形 捧腹大笑 笑口常开 兴致盎然 乐此不疲 "
                      "其乐融融 皆大欢喜 扬眉吐气 合不拢嘴 笑得合不拢嘴 喜从天降 大快人心 拍手称快 拍手叫好 "
                      "红光满面 满面红光 精神焕发 意气风发 踌躇满志 志得意满 自得其乐 逍遥自在 喜上加喜 双喜临门 "
                      "红红火火 热热闹闹 欢蹦乱跳 蹦蹦跳跳 笑眯眯地 心里美滋滋 乐得合不拢嘴 开心得飞起 "
                      "美得冒泡 高兴得跳起来 心里乐开了花 笑开了花 乐不思蜀 喜滋滋地 满心喜悦 满怀喜悦 兴奋不已 激动不已",
    ("happy", STRONG): "欣喜若狂 喜极而泣 狂喜不已",
    ("angry", PLAIN): "怒气冲天 大发雷霆 气急败坏 恼羞成怒 怒火中烧 怒发冲冠 怒目而视 横眉竖眼 横眉冷对 义愤填膺 "
                      "忍无可忍 气势汹汹 拍案而起 破口大骂 怒不可遏 勃然大怒 七窍生烟 咬牙切齿 怒气冲冲 气冲斗牛 "
                      "怒形于色 吹胡子瞪眼 气不打一处来 怒火冲天 大动肝火 肝火旺 怒从心头起 恶向胆边生 恨之入骨 "
                      "切齿痛恨 怒目圆睁 怒目圆瞪 横眉怒目 金刚怒目 声色俱厉 疾言厉色 厉声 厉声呵斥 气炸了肺 "
                      "气得发抖 气得直跺脚 气得七窍生烟 愤世嫉俗 怨声载道 怒气填胸 怒火万丈 火冒三尺 冲冠一怒 "
                      "剑拔弩张 怒火攻心 气血上涌 面红耳赤 脸红脖子粗 青筋暴起 怒容满面 满脸怒容 余怒未消 "
                      "满腔怒火 满腔愤怒 怒火难平 急赤白脸 是可忍孰不可忍 令人发指 恨得牙痒痒 牙痒痒 "
                      "气得不行 火冒三丈 暴跳如雷 火上浇油 气愤不已 愤怒不已 忍不下去 拍桌子瞪眼 摔门而去 "
                      "怒气难消 气急 骂骂咧咧 吹胡子",
    ("sad", PLAIN): "泪眼汪汪 痛哭流涕 黯然神伤 愁眉苦脸 万念俱灰 心灰意冷 唉声叹气 愁眉不展 潸然泪下 泣不成声 "
                    "欲哭无泪 无精打采 灰心丧气 黯然泪下 悲从中来 眼泪汪汪 垂头丧气 郁郁寡欢 闷闷不乐 怏怏不乐 "
                    "泪流满面 以泪洗面 泪如雨下 泪如泉涌 热泪盈眶 声泪俱下 涕泗横流 悲不自胜 心碎欲裂 意志消沉 "
                    "萎靡不振 没精打采 郁郁不乐 忧心忡忡 愁容满面 满面愁容 愁云惨淡 愁肠百结 心灰意懒 伤心落泪 "
                    "黯然销魂 形单影只 孤苦伶仃 凄凄切切 孤孤单单 落落寡欢 泪眼婆娑 泪眼朦胧 眼含泪水 两眼含泪 "
                    "失魂落魄 心酸不已 心痛不已 痛心疾首 心碎了 心都碎了 哭得稀里哗啦 哭成泪人 鼻子发酸 "
                    "眼眶红了 一蹶不振 悔不当初 追悔莫及 后悔莫及 长吁短叹 怅然若失 若有所失 心事重重 "
                    "了无生趣 哭红了眼 悲伤不已 难过不已 伤心不已 泣不成声 哭丧着脸 耷拉着脑袋 提不起劲 "
                    "提不起精神 心情沉重 心里空落落 空落落 心口堵 心里堵得慌 堵得慌 哀哀戚戚",
    ("sad", STRONG): "痛不欲生 肝肠寸断 悲痛万分 悲痛欲绝 伤心欲绝 哀痛欲绝 心如刀割 心如刀绞 痛彻心扉 撕心裂肺 "
                     "嚎啕大哭 号啕大哭 放声大哭 失声痛哭 痛哭失声 心如死灰 生无可恋 伤心透顶 悲恸欲绝",
    ("surprised", PLAIN): "出乎意料 瞠目结舌 意想不到 吓了一跳 出人意料 匪夷所思 大跌眼镜 措手不及 难以想象 "
                          "大吃一惊 始料未及 吃了一惊 难以置信 不可思议 目瞪口呆 呆若木鸡 张口结舌 惊叹不已 "
                          "叹为观止 刮目相看 闻所未闻 出其不意 猝不及防 如梦初醒 惊讶不已 惊诧莫名 惊奇不已 "
                          "瞪大双眼 瞪大了眼睛 愣在原地 愣住了 傻眼了 大惊失色 大惊小怪 惊为天人 万万没想到 "
                          "令人震惊 惊掉了下巴 下巴掉了 眼珠子都掉出来 不敢置信 真不敢相信 简直不敢相信 "
                          "简直不敢相信自己的眼睛 不敢相信自己的眼睛 不敢相信自己的耳朵 一脸惊讶 满脸惊讶 "
                          "一脸诧异 吃惊不小 惊得说不出话 说不出话来 惊呼 惊叫 惊呼一声 恍然大悟",
    ("surprised", STRONG): "震惊不已 惊愕不已 惊得目瞪口呆",
    ("fearful", PLAIN): "战战兢兢 心惊肉跳 惊慌失措 魂飞魄散 不寒而栗 惴惴不安 心惊胆战 惶惶不安 惊弓之鸟 "
                        "胆小如鼠 六神无主 忐忑不安 如履薄冰 噤若寒蝉 毛骨悚然 胆战心惊 提心吊胆 魂不附体 "
                        "心有余悸 惊恐万状 惊魂未定 面如土色 面无人色 脸色煞白 脸色苍白 吓得脸色发白 闻风丧胆 "
                        "寒毛直竖 汗毛倒竖 头皮发麻 后背发凉 脊背发凉 背脊发凉 手脚冰凉 手心冒汗 手心出汗 "
                        "冷汗直流 冷汗直冒 浑身发抖 瑟瑟发抖 浑身哆嗦 两腿发软 腿都软了 双腿发软 心怦怦直跳 "
                        "心扑通扑通 心里发毛 心里发慌 心慌意乱 惶恐不安 惊慌失色 屁滚尿流 抱头鼠窜 落荒而逃 "
                        "草木皆兵 风声鹤唳 杯弓蛇影 谈虎色变 畏首畏尾 畏缩不前 望而生畏 令人生畏 阴森恐怖 "
                        "阴森可怖 恐怖至极 吓破了胆 吓掉了魂 吓丢了魂 吓得魂都没了 魂都吓没了 胆都吓破了 "
                        "心惊胆寒 惊心动魄 触目惊心 大气不敢出 不敢出声 屏住呼吸 紧紧张张 吓得发抖 "
                        "害怕得发抖 心里发怵 心跳到嗓子眼 心提到嗓子眼 心都提到嗓子眼了 "
                        "吓出一身冷汗 一身冷汗 惊恐不安 惶惶不可终日 心神不定 胆小怕事 缩成一团",
    ("fearful", STRONG): "惊恐万分 吓得半死 魂飞天外 吓得魂飞魄散 吓破胆",
    ("fearful", WEAK): "七上八下 心里七上八下 忐忑 心神不宁 坐立不安 有些不安",
    ("disgusted", PLAIN): "令人恶心 深恶痛绝 不屑一顾 令人厌恶 不堪入目 臭不可闻 嗤之以鼻 令人作呕 让人作呕 "
                          "几欲作呕 倒胃口 大倒胃口 不堪入耳 面目可憎 臭气熏天 臭气冲天 污秽不堪 肮脏不堪 "
                          "避之不及 避之唯恐不及 为人不齿 令人不齿 恶心至极 恶心透顶 看着就恶心 想想就恶心 "
                          "一脸嫌弃 嫌弃至极 掩鼻而过 捏着鼻子 看着就膈应 让人反胃 令人反胃 恶心得想吐 "
                          "不屑一提 鄙夷不屑 嗤之以鼻地 嫌东嫌西 翻白眼 恶心巴拉的",
    ("neutral", 0.0): "若无其事 不紧不慢 不温不火 波澜不惊 淡定自若 从容不迫 镇定自若 平平常常 平淡无奇 "
                      "面不改色 泰然自若 神色自若 气定神闲 处之泰然 心如止水 无动于衷 一本正经 一板一眼 "
                      "字正腔圆 就事论事 公事公办 实事求是 不偏不倚 娓娓道来 慢条斯理 有条不紊 四平八稳 "
                      "不卑不亢 不带感情 没有感情 不带情绪 没有情绪 平铺直叙 心平气和 像播音员一样 "
                      "像念新闻一样 念新闻 播新闻 读新闻 新闻播报 正常说话 正常说 平常说话 照常说",
}

#: idiom -> (emotion, inherent intensity)
IDIOMS: dict[str, tuple[str, float]] = {
    idiom: key for key, idioms in _IDIOMS.items() for idiom in idioms.split()}

#: Characters that carry an emotion inside an idiom that is not listed, by how sure they are.
#: A sure morpheme counts in any unlisted word of three characters or more; an unsure one
#: (火 is anger in 火冒三尺 but a fire in 火车站, 胆 is fear in 胆战心惊 but gall in 胆大包天)
#: counts only inside a four-character word, the shape of an idiom. 气 is left out: it is
#: anger in 气愤 but breath, air or mood in 语气, 天气, 喜气, 心平气和.
_MORPHEMES: dict[str, tuple[str, str]] = {  # emotion -> (sure, unsure)
    "angry": ("怒愤恼忿嗔恨", "火暴骂吼咬瞪"),
    "sad": ("悲哀泪泣哭愁忧凄伤", "痛苦闷郁惨丧叹寡"),
    "fearful": ("恐惧悚栗怕吓慌畏怯惶骇兢", "胆魂颤抖寒悸"),
    "surprised": ("惊愕讶诧", "呆瞠愣"),
    "happy": ("喜欢乐笑悦欣", "畅怡"),
    "disgusted": ("呕嫌厌鄙憎", "臭脏秽唾"),
}
IDIOM_MORPHEMES: dict[str, str] = {char: emotion for emotion, (sure, _) in _MORPHEMES.items() for char in sure}
UNSURE_MORPHEMES: dict[str, str] = {char: emotion for emotion, (_, unsure) in _MORPHEMES.items() for char in unsure}
#: an idiom with fear in it is fear even where it startles too: 胆战心惊, 惊慌, 心惊肉跳
OUTRANKS = {"fearful": ("surprised",)}
#: a morpheme of joy right after one of these means its absence: 不乐, 寡欢 are sad
JOY_NEGATORS = set("不寡无没难少")

#: body and mood words -> {what they do: emotion}, read like the English ones in `phrases.py`:
#: 心情特别好, 心里酸酸的, 腿都软了, 发了一通脾气. A reaction matches a word that is it, or
#: it followed only by fillers or its own repetition (酸酸的, 糟透了).
_MOOD, _HEART = "心情 情绪 心态 心境".split(), "心里 心头 心中 心".split()
BODY_REACTIONS: dict[str, dict[str, str]] = {
    **dict.fromkeys(_MOOD, {**dict.fromkeys("好 不错 棒 美 愉快 舒畅 大好 晴朗 灿烂 飞扬 高涨".split(), "happy"),
                            **dict.fromkeys("差 糟 糟糕 不好 不太好 不佳 低落 沉重 低沉 低迷 谷底 灰暗 阴沉 跌 坏".split(),
                                            "sad")}),
    **dict.fromkeys(_HEART, {**dict.fromkeys("酸 苦 堵 凉 空 空落落 沉 痛 疼 碎 难受".split(), "sad"),
                             **dict.fromkeys("打鼓 发毛 发慌 没底 怦怦 扑通 咯噔 发怵 毛毛 悬 紧".split(), "fearful"),
                             **dict.fromkeys("火 憋 窝火 来气".split(), "angry"),
                             **dict.fromkeys("美 乐 甜 暖 开花 乐开花".split(), "happy")}),
    "脾气": dict.fromkeys("发 大 很大 暴 坏 急 冲 上来".split(), "angry"),
    **dict.fromkeys("脸 脸色 面色".split(), {**dict.fromkeys("青 铁青 发青 涨红 通红".split(), "angry"),
                                            **dict.fromkeys("白 煞白 苍白 发白 惨白".split(), "fearful")}),
    **dict.fromkeys("眼眶 眼圈".split(), dict.fromkeys("红 湿 湿润 泛红 含泪 发红".split(), "sad")),
    **dict.fromkeys("眼睛 双眼 眼珠".split(), dict.fromkeys("瞪大 睁大 直 圆 瞪圆".split(), "surprised")),
    **dict.fromkeys("腿 双腿 两腿 腿脚 膝盖".split(), dict.fromkeys("软 发软 抖 打颤 哆嗦 发抖".split(), "fearful")),
    **dict.fromkeys("手 双手".split(), dict.fromkeys("抖 发抖 冰凉 冒汗 出汗 打颤".split(), "fearful")),
    "头皮": dict.fromkeys("发麻 麻".split(), "fearful"),
    **dict.fromkeys("后背 背 脊背 后脊梁 脊梁骨 脊梁".split(), dict.fromkeys("发凉 凉 冒汗 冷汗 发冷".split(), "fearful")),
    "牙": {**dict.fromkeys("咬 咬紧 切 咬碎".split(), "angry"), **dict.fromkeys("打颤 打架".split(), "fearful")},
    "胃": dict.fromkeys("翻 翻腾 翻江倒海 不舒服 难受 反".split(), "disgusted"),
    "眉头": dict.fromkeys("紧锁 皱 紧皱 紧蹙".split(), "sad"),
    **dict.fromkeys("嘴 嘴角".split(), {**dict.fromkeys("上扬 翘 合不拢 咧".split(), "happy"), "撇": "disgusted"}),
    "鼻子": {**dict.fromkeys("酸 发酸".split(), "sad"), **dict.fromkeys("捂 捂住 捏 捏住 皱".split(), "disgusted")},
    "下巴": dict.fromkeys("掉 掉下来".split(), "surprised"),
}
#: what may follow a reaction in the same word: 酸酸的, 糟透了, 凉了
REACTION_FILLERS = set("了的地啦呢啊透死极")

#: emotion verbs that take a result after them: 吓坏, 气疯, 惊呆, 哭肿 (read when not listed)
EMOTION_VERBS = {"吓": "fearful", "气": "angry", "惊": "surprised", "哭": "sad", "乐": "happy", "笑": "happy",
                 "怒": "angry", "悲": "sad", "恨": "angry", "烦": "angry", "愁": "sad", "怕": "fearful",
                 "慌": "fearful", "恶": "disgusted", "嫌": "disgusted"}
#: result -> how much it strengthens the verb: 吓死 is stronger than 吓醒
VERB_RESULTS = {**dict.fromkeys("坏死炸疯翻惨透爆", 1.35), **dict.fromkeys("呆傻哭肿醒跑懵晕住蒙", 1.0)}
#: an emotion morpheme before a word for face or look names that look: 愁容, 怒色, 笑脸
FACE_NOUNS = set("容颜脸色")
