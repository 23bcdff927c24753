// The settings' help, what they take and their groups in Simplified Chinese (issue 41): the
// declarations (Sources/Configuration/Declarations.swift) give them in English only. Each help is
// kept with the English it translates: where the declaration's English has changed since, the page
// shows the English (a stale translation is worse than none) and SettingsChineseTests fail until
// the Chinese is brought up to date. Key names, JSON words, units, paths and every figure stay as
// the English writes them. A default's text is translated where it has words (`null: the first
// connected one`), by its English, so a changed declaration shows its English; a default that is a
// JSON value by itself (`60`, `"rings"`) is the same in both.

import Configuration

/// The Chinese of the settings' texts.
public enum SettingsChinese {
    /// The place a field's help is kept under: its dotted key, or `gauges[].KEY` for a gauge's.
    public static func place(_ field: SettingField, gauge: Bool) -> String {
        gauge ? "gauges[]." + field.key : field.key
    }

    /// The field's help in Chinese, if it has one for the English it shows now.
    public static func help(_ field: SettingField, gauge: Bool) -> String? {
        guard let entry = helps[place(field, gauge: gauge)], entry.en == field.help else { return nil }
        return entry.zh
    }

    /// What a field takes, in Chinese (nil: the English is shown).
    public static func expected(_ english: String) -> String? { expecteds[english] }

    /// A default's text in Chinese (nil: the English is shown: a JSON value by itself, which is
    /// the same in both, or words not translated as they are now).
    public static func defaultText(_ english: String) -> String? { defaultTexts[english] }

    /// The place a member of the object at `path` (`schedule[]`, `cycle`) is kept under:
    /// `schedule[].from`, `cycle.every`.
    public static func place(_ member: MemberHelp, of path: String) -> String { path + "." + member.key }

    /// A member's help in Chinese, if it has one for the English it shows now.
    public static func help(_ member: MemberHelp, of path: String) -> String? {
        guard let entry = helps[place(member, of: path)], entry.en == member.help else { return nil }
        return entry.zh
    }

    /// A group's title and help in Chinese (the help nil where the English has changed since).
    public static func group(_ group: SettingGroup) -> (title: String, help: String?)? {
        guard let entry = groups[group.id] else { return nil }
        return (entry.title, entry.en == group.help ? entry.zh : nil)
    }

    /// Each field's help: its English, then its Chinese.
    static let helps: [String: (en: String, zh: String)] = [
        // The top level.
        "name": (
            "whose rings they are, shown on the ring screen (empty: no name)",
            "圆环的主人，显示在圆环屏幕上（留空：不显示名字）"
        ),
        "locale": (
            "the language of every label and date; zh_CN… (and zh-CN) give zh-Hans",
            "所有标签和日期的语言；zh_CN…（以及 zh-CN）都视为 zh-Hans"
        ),
        "screens": (
            "the screens, in the order the buttons step through them; \"clock\" adds the clock screen (the time large, the date, "
                + "the day's rings small), \"family\" everyone's rings (glance people), \"competition\" the household's competition "
                + "(household.start)",
            "各个屏幕，按按键切换的顺序排列；\"clock\" 添加时钟屏幕（大字显示时间，另有日期和当天的小圆环），\"family\" 显示每个人的圆环"
                + "（glance people），\"competition\" 显示家庭竞赛（household.start）"
        ),
        "keys": (
            "key names to actions, over the built-in key map",
            "按键名称对应的动作，覆盖内置的按键映射"
        ),
        "longPress": (
            "what a long press does, by the action of the key's short press (on the progress screen a hold of any button is its Cancel)",
            "长按的作用，按该键短按时的动作指定（在进度屏幕上，按住任意按键都是取消）"
        ),
        "longPressSeconds": (
            "how long a press must be to be long",
            "按住多久才算长按"
        ),
        "grabInput": (
            "take the input devices for the app alone, so key presses do not also reach the console; --no-grab lets them through "
                + "(a grabbed keyboard's Power key and Ctrl+Alt+Fn do not reach the system; power buttons on their own are never grabbed)",
            "由本程序独占输入设备，按键就不会同时传到控制台；--no-grab 则让按键照常传递（被独占的键盘上的 Power 键和 Ctrl+Alt+Fn "
                + "不会传到系统；独立的电源按钮从不被独占）"
        ),
        "database": (
            "the store (a SQLite file)",
            "数据库（一个 SQLite 文件）"
        ),
        "refresh": (
            "programs run one after another when fresh data is asked for (a pull down, a key mapped to refresh), each stopped after 60 s",
            "请求新数据时（下拉，或按下映射为刷新的键）依次运行的程序，每个运行 60 秒后被停止"
        ),
        "mqtt": (
            "the MQTT broker the gauges' topics come from (glance mqtt connects to it); null: none",
            "仪表所订阅主题的 MQTT 代理服务器（glance mqtt 会连接它）；null：无"
        ),
        // touch
        "touch.swapXY": (
            "swap the axes, for a touch sensor mounted turned by 90° (before the rotation)",
            "交换 x 轴和 y 轴，用于转了 90° 安装的触摸传感器（在旋转之前进行）"
        ),
        "touch.invertX": ("mirror the x axis", "镜像翻转 x 轴"),
        "touch.invertY": ("mirror the y axis", "镜像翻转 y 轴"),
        // display
        "display.card": (
            "the DRM card; a card is chosen by its connected connectors, never by its number",
            "DRM 显卡；按显卡上已连接的接口选择，从不按编号选择"
        ),
        "display.connector": (
            "the connector, e.g. HDMI-A-1, DSI-1, DSI-2, SPI-1",
            "显示接口，例如 HDMI-A-1、DSI-1、DSI-2、SPI-1"
        ),
        "display.mode": (
            "the mode; a refresh with decimals takes only that rate (59.94), a whole one any rate that rounds to it",
            "显示模式；带小数的刷新率只匹配这一刷新率（59.94），整数刷新率则匹配四舍五入后等于它的任何刷新率"
        ),
        "display.format": (
            "the pixel format; rgb565 (16-bit SPI panels) is drawn with ordered dithering",
            "像素格式；rgb565（16 位 SPI 面板）使用有序抖动绘制"
        ),
        "display.rotate": (
            "how the panel is mounted, turned clockwise: the picture is drawn upright and turned onto it, and touch with it",
            "面板的安装方向（顺时针旋转的角度）：画面按正向绘制后再旋转到面板上，触摸也随之旋转"
        ),
        "display.legacy": (
            "SetCrtc and PageFlip even where atomic mode setting is offered",
            "即使支持原子模式设置（atomic mode setting），也使用 SetCrtc 和 PageFlip"
        ),
        "display.shape": (
            "a round panel keeps everything inside its inscribed circle",
            "圆形面板会把所有内容都放在其内切圆之内"
        ),
        "display.diagonal": (
            "the visible area's diagonal in inches (a round panel's diameter), e.g. 1.3: with the viewing distance it sets the "
                + "smallest text (figures 20′ at the eye, other text 12′)",
            "可视区域的对角线长度，单位为英寸（圆形面板为直径），例如 1.3：它与观看距离一起决定最小的文字（数字的视角为 20′，其他文字为 12′）"
        ),
        "display.viewingDistance": (
            "how far the viewer's eyes are from the panel, in centimetres (a watch about 30, a panel across a room 200 or more)",
            "观看者的眼睛到面板的距离，单位为厘米（手表约 30，房间另一头的面板 200 或更远）"
        ),
        "display.brightness": (
            "the awake brightness, in percent of full (80: 80 %); the brighter and darker keys step it by 10 (70, 80, 90) and the "
                + "level they choose is kept in the store until this setting changes",
            "唤醒时的亮度，以满亮度的百分比表示（80：80 %）；调亮和调暗键每次调节 10（70、80、90），所选的亮度保存在数据库中，直到此设置被修改"
        ),
        // idle
        "idle.dimAfter": (
            "seconds without input before the picture dims (the command line's 0: never)",
            "无输入多少秒后画面变暗（命令行中的 0：从不）"
        ),
        "idle.blankAfter": (
            "seconds without input before the panel goes black and powers down, at least dimAfter (the command line's 0: never)",
            "无输入多少秒后面板黑屏并断电，不小于 dimAfter（命令行中的 0：从不）"
        ),
        "idle.dimLevel": (
            "the brightness when dimmed, in percent of the awake brightness (30 of an awake 80 %: 24 % of full; 0: dark until "
                + "input or the blank)",
            "变暗后的亮度，以唤醒亮度的百分比表示（唤醒亮度为 80 % 时取 30：满亮度的 24 %；0：全暗，直到有输入或黑屏）"
        ),
        // clock
        "clock.format": (
            "how the time is written: 24h (15:05), 12h (3:05 PM) or off (no time on the ring screen)",
            "时间的显示格式：24h（15:05）、12h（3:05 PM）或 off（圆环屏幕上不显示时间）"
        ),
        "clock.tiny": (
            "what a tiny panel (shorter side under 300 pixels) shows above its rings",
            "小面板（短边不足 300 像素）在圆环上方显示的内容"
        ),
        // fonts
        "fonts.file": (
            "a font file for all text instead of Inter",
            "用于所有文字的字体文件，代替 Inter"
        ),
        "fonts.cjkFile": (
            "a font file for Chinese instead of WenQuanYi Micro Hei",
            "用于中文的字体文件，代替文泉驿微米黑（WenQuanYi Micro Hei）"
        ),
        // serve
        "serve.listen": (
            "where glance serve listens; \"0.0.0.0:8127\" (or \"[::]:8127\") for the local network",
            "glance serve 的监听地址；\"0.0.0.0:8127\"（或 \"[::]:8127\"）用于本地网络"
        ),
        "serve.tokenFile": (
            "the file holding person 1's bearer token, which every request but /v1/health must send (the package makes a random "
                + "one); the household's others are in people/ beside it (glance people)",
            "存放 1 号成员的持有者令牌（bearer token）的文件，除 /v1/health 外的每个请求都必须带上它（软件包会生成一个随机令牌）；"
                + "家庭其他成员的令牌在它旁边的 people/ 中（glance people）"
        ),
        "serve.maxBody": (
            "the largest request body; a larger one is answered 413 before it is read",
            "请求体的最大大小；更大的请求体在读取之前就以 413 应答"
        ),
        "serve.perSecond": (
            "requests a second from one address (bursts of as many); more are answered 429; 0: no limit",
            "每个地址每秒的请求数（允许同样数量的突发）；超出的以 429 应答；0：不限制"
        ),
        "serve.timeout": (
            "seconds a connection may stay idle before it is closed",
            "连接空闲多少秒后被关闭"
        ),
        "serve.pastDays": (
            "how many days before today a pushed day or sample may be (none after tomorrow); older history: glance import",
            "推送的日数据或样本最多可以早于今天多少天（不能晚于明天）；更早的历史数据请用 glance import"
        ),
        "serve.maxStore": (
            "the store's largest size a push may grow it to; a push beyond is answered 507 and keeps nothing",
            "推送可使数据库增长到的最大大小；超出的推送以 507 应答，且不保存任何内容"
        ),
        "serve.tls": (
            "{\"cert\": PEM file, \"key\": PEM file}: HTTPS instead of HTTP",
            "{\"cert\": PEM 文件, \"key\": PEM 文件}：使用 HTTPS 代替 HTTP"
        ),
        // import
        "import.watch": (
            "a folder whose files glance import --watch (glance-import-watch.service) imports whenever one is written or moved in "
                + "(a Syncthing folder with Gadgetbridge's export, an Apple Health export or a glance-readings file), all or nothing "
                + "as every import",
            "一个文件夹：每当有文件写入或移入，glance import --watch（glance-import-watch.service）就导入该文件（例如存放 Gadgetbridge "
                + "导出文件的 Syncthing 文件夹、Apple 健康（Apple Health）的导出文件或 glance-readings 文件）；和每次导入一样，要么全部导入，要么都不导入"
        ),
        // web
        "web.listen": (
            "where glance web serves the panel's page; \"0.0.0.0:8128\" for the local network",
            "glance web 提供面板网页的地址；\"0.0.0.0:8128\" 用于本地网络"
        ),
        "web.url": (
            "the page's address as a phone reaches it, written in the one-time login link (glance web link)",
            "手机访问本网页所用的地址，会写进一次性登录链接（glance web link）"
        ),
        "web.sessionHours": (
            "hours a login lasts on a browser",
            "浏览器上一次登录的有效时长（小时）"
        ),
        "web.linkFile": (
            "where glance web link leaves the one-time link's secret (0640) for the page to take",
            "glance web link 存放一次性链接密钥（0640）的位置，供网页读取"
        ),
        // goals
        "goals.move": ("kcal", "千卡（kcal）"),
        "goals.exercise": ("minutes", "分钟"),
        "goals.stand": ("hours", "小时"),
        "goals.steps": (
            "steps: Move on a day whose source counts steps and no energy (a band or watch through Gadgetbridge)",
            "步数：在数据来源只计步数、不计能量的日子（通过 Gadgetbridge 连接的手环或手表），活动（Move）按步数衡量"
        ),
        // homeAssistant
        "homeAssistant.enabled": (
            "publish the panel to Home Assistant (MQTT discovery) from glance mqtt, whenever \"mqtt\" names a broker",
            "只要 \"mqtt\" 指定了代理服务器，glance mqtt 就把面板发布到 Home Assistant（MQTT 发现）"
        ),
        "homeAssistant.discoveryPrefix": (
            "Home Assistant's discovery prefix (its MQTT integration's setting)",
            "Home Assistant 的发现前缀（其 MQTT 集成中的设置）"
        ),
        "homeAssistant.name": (
            "the device's name in Home Assistant",
            "设备在 Home Assistant 中的名称"
        ),
        "homeAssistant.baseTopic": (
            "the topic the entities' state and command topics lie under",
            "各实体的状态主题和命令主题所在的上级主题"
        ),
        "homeAssistant.notify": (
            "offer the Message notify entity (Home Assistant 2024.5 or later; false for an older one, which logs that it does "
                + "not know notify; its messages can still be published to the topic)",
            "提供 Message 通知（notify）实体（需要 Home Assistant 2024.5 或更高版本；旧版本请设为 false，否则它会在日志中记录不认识 notify；"
                + "消息仍然可以发布到该主题）"
        ),
        // household
        "household.staleAfter": (
            "hours without a push from a person's phone after which the family screen draws their rings as stale",
            "某人的手机超过多少小时没有推送后，家庭屏幕把其圆环显示为过时"
        ),
        "household.start": (
            "the competition's first day (the competition screen; points the Apple way)",
            "竞赛的第一天（竞赛屏幕；按 Apple 的方式计分）"
        ),
        "household.end": (
            "the competition's last day",
            "竞赛的最后一天"
        ),
        "household.people": (
            "who takes part in the competition, by name or id",
            "参加竞赛的人，用名字或 id 指定"
        ),
        // A gauge's (an item of `gauges`).
        "gauges[].style": (
            "circular, circularCapacity, linear, linearCapacity, or their accessory variants",
            "circular、circularCapacity、linear、linearCapacity，或它们的 accessory 变体"
        ),
        "gauges[].title": ("the label", "标题"),
        "gauges[].unit": (
            "shown after the value, e.g. \"°C\", \"%\"",
            "显示在数值之后，例如 \"°C\"、\"%\""
        ),
        "gauges[].min": ("the range's low end", "范围的下限"),
        "gauges[].max": ("the range's high end", "范围的上限"),
        "gauges[].decimals": (
            "the places the value and the range's ends are written to (0: whole numbers); a value is never rounded onto an end "
                + "of the range it does not reach (99.95 of 100 at one place: 99.9)",
            "数值和范围两端显示的小数位数（0：整数）；没有达到范围端点的数值不会被舍入成端点（范围上限 100、保留 1 位小数时，99.95 显示为 99.9）"
        ),
        "gauges[].tint": ("the gradient along the gauge", "沿仪表分布的渐变色"),
        "gauges[].source": (
            "where the value comes from: {\"metric\": NAME}, {\"file\": PATH}, {\"mqtt\": TOPIC} or {\"command\": [PROGRAM, …]}",
            "数值的来源：{\"metric\": NAME}、{\"file\": PATH}、{\"mqtt\": TOPIC} 或 {\"command\": [PROGRAM, …]}"
        ),
        // The schedule's page.
        "schedule": (
            "windows of the local clock that set the brightness, the screens and the cycle; outside every window the settings "
                + "above hold, where windows overlap the first listed wins, and a touch or a command overrides a window until the "
                + "schedule's next boundary; at most 100 windows",
            "按本地时间划分的时段，用来设定亮度、屏幕和轮换；不在任何时段内时使用上面的设置，时段重叠时以列在最前面的为准，"
                + "触摸或命令会覆盖当前时段，直到日程的下一个边界；最多 100 个时段"
        ),
        "cycle": (
            "screens that turn by themselves, for a wall panel; null: they stay until a button or a task changes them",
            "自动轮换的屏幕，适合挂墙的面板；null：屏幕保持不变，直到按键或任务切换它"
        ),
        // What a window of the schedule is made of (the schedule's page lists them).
        "schedule[].from": (
            "when the window starts, by the local clock",
            "时段的开始时间，按本地时间"
        ),
        "schedule[].to": (
            "when it ends; at or before from: the next day (\"23:00\" to \"06:30\" crosses midnight)",
            "时段的结束时间；等于或早于 from 时为第二天（\"23:00\" 到 \"06:30\" 跨过午夜）"
        ),
        "schedule[].days": (
            "the days it starts on (a window crossing midnight ends the next morning); []: every day",
            "时段在哪几天开始（跨过午夜的时段在第二天早上结束）；[]：每天"
        ),
        "schedule[].brightness": (
            "the brightness while it holds, in percent of full (it stands in for the awake brightness); 0: off (the first touch "
                + "or press only wakes the panel, until the next boundary)",
            "时段内的亮度，以满亮度的百分比表示（代替唤醒时的亮度）；0：关屏（直到下一个边界，第一次触摸或按键只会唤醒面板）"
        ),
        "schedule[].screens": (
            "the screens shown while it holds (the clock alone in the evening, though the day's screens do not list it); the "
                + "first is shown when it starts; a running task's progress still shows itself where \"progress\" is configured "
                + "(so a window of \"progress\" alone is refused: it would show \"Working…\" with no task)",
            "时段内显示的屏幕（例如晚上只显示时钟，即使白天的屏幕中没有它）；时段开始时显示第一个；只要配置了 \"progress\"，"
                + "正在运行的任务仍会显示其进度（因此只有 \"progress\" 的时段会被拒绝：没有任务时它会显示 \"Working…\"）"
        ),
        "schedule[].cycle": (
            "the screens turning while it holds, as the top-level cycle; null: none",
            "时段内自动轮换的屏幕，写法同顶层的 cycle；null：不轮换"
        ),
        // What the cycle is made of.
        "cycle.every": ("seconds each screen stays", "每个屏幕停留的秒数"),
        "cycle.screens": (
            "the screens to turn through, in order, each one of the configured screens (never \"progress\"); []: all of them "
                + "but progress",
            "按顺序轮换的屏幕，每个都必须是已配置的屏幕（不能是 \"progress\"）；[]：除 progress 以外的所有屏幕"
        ),
        "cycle.pauseOnInput": (
            "seconds without input before the turning goes on",
            "有输入后，再无输入多少秒才继续轮换"
        ),
    ]

    /// What the fields take, by the English: each quoted word and each figure kept.
    static let expecteds: [String: String] = [
        "a string": "字符串",
        "a string, or null": "字符串，或 null",
        "a non-empty string": "非空字符串",
        "a number": "数字",
        "true or false": "true 或 false",
        "an object (below), or null": "对象（见下），或 null",
        "\"en\" or \"zh-Hans\", or null for the environment's (LC_ALL, LC_MESSAGES, LANG)":
            "\"en\" 或 \"zh-Hans\"，或 null 表示按环境变量（LC_ALL、LC_MESSAGES、LANG）",
        "screen names in order: \"rings\", \"clock\", \"gauges\", \"progress\", \"family\", \"competition\"; each once, at least one":
            "按顺序排列的屏幕名称：\"rings\"、\"clock\"、\"gauges\"、\"progress\"、\"family\"、\"competition\"；每个只能出现一次，至少一个",
        "an object of key names to actions, e.g. {\"KEY_RIGHT\": \"nextDay\"}": "按键名称到动作的对象，例如 {\"KEY_RIGHT\": \"nextDay\"}",
        "an object of actions to actions, e.g. {\"select\": \"today\"}": "动作到动作的对象，例如 {\"select\": \"today\"}",
        "seconds from 0.2 to 10": "0.2 到 10 秒",
        "at most 8 commands, each [\"/path/to/program\", \"argument\", …] (no shell)":
            "最多 8 条命令，每条为 [\"/path/to/program\", \"argument\", …]（不经过 shell）",
        "a device like \"/dev/dri/card1\", or null": "设备，如 \"/dev/dri/card1\"，或 null",
        "\"WxH\" or \"WxH@Hz\" (e.g. \"800x480@60\", \"1920x1080@59.94\"), or null":
            "\"WxH\" 或 \"WxH@Hz\"（例如 \"800x480@60\"、\"1920x1080@59.94\"），或 null",
        "one of xrgb8888 or rgb565, or null": "xrgb8888 或 rgb565 之一，或 null",
        "0, 90, 180 or 270": "0、90、180 或 270",
        "one of rectangle or round": "rectangle 或 round 之一",
        "a diagonal in inches from 0.5 to 120, or null (the display's own)": "对角线 0.5 到 120 英寸，或 null（用显示器自己报告的）",
        "a distance in centimetres from 10 to 1000, or null (the usual one)": "距离 10 到 1000 厘米，或 null（常用的距离）",
        "a whole percentage of full from 5 to 100, or null (as found); a number above 0 and at most 1 is read as the older fraction (0.8: 80 %)":
            "满亮度的整数百分比，5 到 100，或 null（保持启动时的亮度）；大于 0 且不超过 1 的数按旧的小数写法读取（0.8：80 %）",
        "seconds from 1 to 86400, or null for never": "1 到 86400 秒，或 null 表示从不",
        "a whole percentage of the awake brightness from 5 to 100, or 0 (dark); a number above 0 and at most 1 is read as the older fraction (0.8: 80 %)":
            "唤醒亮度的整数百分比，5 到 100，或 0（全暗）；大于 0 且不超过 1 的数按旧的小数写法读取（0.8：80 %）",
        "one of 24h, 12h or off, or null": "24h、12h 或 off 之一，或 null",
        "one of \"day\" or \"time\"": "\"day\" 或 \"time\" 之一",
        "HOST:PORT, e.g. \"0.0.0.0:8127\" or \"[::]:8127\" (port 0: any free one)":
            "HOST:PORT，例如 \"0.0.0.0:8127\" 或 \"[::]:8127\"（端口 0：任一空闲端口）",
        "bytes from 1024 to 268435456": "1024 到 268435456 字节",
        "0 (no limit), or from 1 to 10000 requests a second": "0（不限制），或每秒 1 到 10000 个请求",
        "seconds from 1 to 3600": "1 到 3600 秒",
        "days from 1 to 3652059": "1 到 3652059 天",
        "MiB from 1 to 1048576": "1 到 1048576 MiB",
        "{\"cert\": FILE, \"key\": FILE} (PEM files), or null": "{\"cert\": FILE, \"key\": FILE}（PEM 文件），或 null",
        "HOST:PORT, e.g. \"0.0.0.0:8128\", or null: off": "HOST:PORT，例如 \"0.0.0.0:8128\"，或 null：关闭",
        "hours from 1 to 720": "1 到 720 小时",
        "0 (no goal) or from 1 to 100000, or null for none": "0（无目标）或 1 到 100000，或 null 表示不设",
        "0 (no goal) or from 1 to 1440, or null for none": "0（无目标）或 1 到 1440，或 null 表示不设",
        "0 (no goal) or from 1 to 24, or null for none": "0（无目标）或 1 到 24，或 null 表示不设",
        "0 (no goal) or from 1 to 250000, or null for none": "0（无目标）或 1 到 250000，或 null 表示不设",
        "an MQTT topic without + or #": "不含 + 或 # 的 MQTT 主题",
        "an MQTT topic without + or #, or null": "不含 + 或 # 的 MQTT 主题，或 null",
        "hours from 0.25 to 744": "0.25 到 744 小时",
        "a day like \"2026-12-07\", or null": "日期，如 \"2026-12-07\"，或 null",
        "names or ids of people (glance people)": "成员的名字或 id（glance people）",
        "one of \"circular\", \"circularCapacity\", \"linear\", \"linearCapacity\", \"accessoryCircular\", \"accessoryCircularCapacity\", \"accessoryLinear\", \"accessoryLinearCapacity\"":
            "以下之一：\"circular\"、\"circularCapacity\"、\"linear\"、\"linearCapacity\"、\"accessoryCircular\"、\"accessoryCircularCapacity\"、"
            + "\"accessoryLinear\"、\"accessoryLinearCapacity\"",
        "places from 0 to 9": "0 到 9 位小数",
        "colours as \"#RRGGBB\", low to high, at least one": "颜色，写作 \"#RRGGBB\"，从低到高，至少一个",
        "one of {\"metric\": NAME}, {\"file\": PATH}, {\"mqtt\": TOPIC}, {\"command\": [PROGRAM, …]} (below)":
            "以下之一：{\"metric\": NAME}、{\"file\": PATH}、{\"mqtt\": TOPIC}、{\"command\": [PROGRAM, …]}（见下）",
        "windows, each an object (below)": "时段列表，每个时段是一个对象（见下）",
        "an object {\"every\", \"screens\", \"pauseOnInput\"}, or null": "对象 {\"every\", \"screens\", \"pauseOnInput\"}，或 null",
        // A window's and the cycle's members.
        "\"HH:MM\" from \"00:00\" to \"23:59\"": "\"HH:MM\"，从 \"00:00\" 到 \"23:59\"",
        "\"HH:MM\" from \"00:01\" to \"24:00\"": "\"HH:MM\"，从 \"00:01\" 到 \"24:00\"",
        "day names, each once: \"mon\", \"tue\", \"wed\", \"thu\", \"fri\", \"sat\", \"sun\"":
            "星期名称，每个只能出现一次：\"mon\"、\"tue\"、\"wed\"、\"thu\"、\"fri\"、\"sat\"、\"sun\"",
        "a whole percentage of full from 5 to 100, or 0 (off); a number above 0 and at most 1 is read as the older fraction (0.8: 80 %)":
            "满亮度的整数百分比，5 到 100，或 0（关屏）；大于 0 且不超过 1 的数按旧的小数写法读取（0.8：80 %）",
        "seconds from 1 to 86400": "1 到 86400 秒",
        "seconds from 0 to 86400": "0 到 86400 秒",
        "screen names, each once, never \"progress\"": "屏幕名称，每个只能出现一次，不能是 \"progress\"",
    ]

    /// The defaults that have words, by their English (a JSON value at their start kept as it is).
    static let defaultTexts: [String: String] = [
        "(required)": "（必填）",
        "null: from LC_ALL, LC_MESSAGES or LANG": "null：按 LC_ALL、LC_MESSAGES 或 LANG 决定",
        "null: /var/lib/glance/glance.db for root (the service), else $XDG_DATA_HOME/glance/glance.db":
            "null：root（即服务）用 /var/lib/glance/glance.db，其他用户用 $XDG_DATA_HOME/glance/glance.db",
        "null: the first card with a connected display": "null：第一块连接了显示器的显卡",
        "null: the first connected one": "null：第一个已连接的接口",
        "null: the display's preferred mode": "null：显示器的首选模式",
        "null: XRGB8888 where the display plane takes it, else RGB565": "null：显示平面支持时用 XRGB8888，否则用 RGB565",
        "null: the size the display reports (DRM's millimetres; an SPI panel's from its overlay's width-mm and height-mm), else "
            + "the usual panel of its pixels (240x240 1.3\", round 1.28\"; 320x240 2.4\"; 800x480 7\"; …)":
            "null：显示器报告的尺寸（DRM 给出的毫米数；SPI 面板的取自其 overlay 的 width-mm 和 height-mm），否则按像素数取常见面板的尺寸"
            + "（240x240 为 1.3\"，圆形为 1.28\"；320x240 为 2.4\"；800x480 为 7\"；…）",
        "null: by the panel's size: 50 under 2\" (a gadget at arm's length), 60 under 4.5\" (a desk clock), 80 under 9\" (a 7\" "
            + "panel on a shelf), else 100 (a wall panel)":
            "null：按面板尺寸：小于 2\" 为 50（伸手可及的小物件），小于 4.5\" 为 60（桌面时钟），小于 9\" 为 80（架子上的 7\" 面板），"
            + "否则为 100（挂墙的面板）",
        "null: the backlight's as found at start": "null：保持启动时背光的亮度",
        "null: as LC_TIME's language and region write it": "null：按 LC_TIME 的语言和地区的写法",
        "null: Inter (fonts-inter)": "null：Inter 字体（fonts-inter）",
        "null: WenQuanYi Micro Hei (fonts-wqy-microhei)": "null：文泉驿微米黑（WenQuanYi Micro Hei，fonts-wqy-microhei）",
        "null: off (glance import --watch says it has no folder and ends)": "null：关闭（glance import --watch 会提示没有文件夹并退出）",
        "null: off (glance web says so and ends)": "null：关闭（glance web 会提示这一点并退出）",
        "null: http:// and the board's host name with .local, and the port": "null：http:// 加上板子的主机名和 .local，再加上端口",
        "null: glance/NODE (from the machine id)": "null：glance/NODE（NODE 取自机器的 machine id）",
        "null: no competition": "null：没有竞赛",
        "null: six days after start: seven days": "null：start 之后第六天：共七天",
        "[]: everyone (glance people)": "[]：所有人（glance people）",
        "the metric's own (glance metric set --min), else 0": "指标自己的下限（glance metric set --min），否则为 0",
        "the metric's own (glance metric set --max), else 100": "指标自己的上限（glance metric set --max），否则为 100",
        "as many as show three significant digits (21.5, 0.045, 1013)": "显示三位有效数字所需的位数（21.5、0.045、1013）",
        "[\"#64D2FF\", \"#FFD60A\", \"#FF9F0A\"]: blue, yellow, orange": "[\"#64D2FF\", \"#FFD60A\", \"#FF9F0A\"]：蓝、黄、橙",
        // A window's members' (their default: the settings of the file outside any window).
        "the configured brightness": "配置中的亮度",
        "the configured screens": "配置中的屏幕",
        "the configured cycle": "配置中的轮换",
    ]

    /// Each group's title in Chinese, its help's English and its help's Chinese (`top`: the page's
    /// own words, the top level has no help).
    static let groups: [String: (title: String, en: String, zh: String)] = [
        "top": (Phrase.topLevel.text(.chinese), "", ""),
        "touch": ("触摸", "how the touch panel is mounted", "触摸屏的安装方式"),
        "display": ("显示", "which card, connector, mode, format and rotation", "使用哪块显卡、哪个接口，以及显示模式、像素格式和旋转方向"),
        "idle": ("空闲", "what happens without input", "没有输入时会发生什么"),
        "clock": ("时钟", "how the time is written", "时间的显示格式"),
        "fonts": ("字体", "font files instead of the packaged ones", "用来代替软件包自带字体的字体文件"),
        "serve": ("HTTP 服务", "glance serve, the HTTP endpoint", "glance serve，HTTP 接口"),
        "import": ("导入", "glance import --watch, the watched folder", "glance import --watch 监视的文件夹"),
        "web": ("网页", "glance web, the panel's own web page", "glance web，面板自己的网页"),
        "goals": (
            "目标", "the goals a day without its own is measured against until goals are set in the store (glance goals)",
            "在数据库中设定目标（glance goals）之前，没有自己目标的日子所对照的目标"
        ),
        "homeAssistant": ("Home Assistant 集成", "glance mqtt: the panel as a Home Assistant device", "glance mqtt：把面板作为 Home Assistant 设备"),
        "household": (
            "家庭", "several people's rings (glance people): the family screen and a competition between them",
            "多人的圆环（glance people）：家庭屏幕，以及他们之间的竞赛"
        ),
    ]
}
