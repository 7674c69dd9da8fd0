<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>About</name>
    <message>
        <source>not installed</source>
        <translation>未安装</translation>
    </message>
    <message>
        <source>no probe run yet</source>
        <translation>尚无探测运行</translation>
    </message>
    <message>
        <source>{version} (probe run on {host}, {date})</source>
        <translation>{version}（{date} 在 {host} 上的探测运行）</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>Choose between GPUs (the workshop) and TPUs (the factory line) for your own ML work: an explained recommendation, measurements of this machine, and the lesson side by side.</source>
        <translation>为你自己的机器学习工作在 GPU（工坊）和 TPU（流水线）之间做出选择：附带解释的建议、本机的实测数据，以及并排对照的课程。</translation>
    </message>
    <message>
        <source>The app makes no network requests. Sources are listed in Learn.</source>
        <translation>本应用不发出任何网络请求。知识来源列在「学习」页面中。</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>Preferences not read</source>
        <translation>未能读取偏好设置</translation>
    </message>
    <message>
        <source>{problem}. The file stays as it is until you change a preference.</source>
        <translation>{problem}。在你更改某项偏好设置之前，该文件保持原样。</translation>
    </message>
</context>
<context>
    <name>BackForward</name>
    <message>
        <source>&amp;Back</source>
        <translation>后退(&amp;B)</translation>
    </message>
    <message>
        <source>Go back to the previous page</source>
        <translation>回到上一页</translation>
    </message>
    <message>
        <source>&amp;Forward</source>
        <translation>前进(&amp;F)</translation>
    </message>
    <message>
        <source>Go forward again</source>
        <translation>再次前进</translation>
    </message>
</context>
<context>
    <name>ChineseFont</name>
    <message>
        <source>No Chinese font is installed: the PDF would show empty boxes for Chinese text. Install one (Debian/Ubuntu: sudo apt install fonts-noto-cjk) and export again, or save as HTML or Markdown.</source>
        <translation>未安装中文字体：PDF 中的中文会显示为空白方框。请先安装一款中文字体（Debian/Ubuntu：sudo apt install fonts-noto-cjk）后重新导出，或改存为 HTML 或 Markdown。</translation>
    </message>
</context>
<context>
    <name>GuideDialog</name>
    <message>
        <source>{app} user guide</source>
        <translation>{app} 用户指南</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Navigation</source>
        <translation>导航</translation>
    </message>
    <message>
        <source>none yet</source>
        <translation>暂无</translation>
    </message>
    <message>
        <source>Verdict so far: {verdict}
1 question open</source>
        <translation>目前的结论：{verdict}
还有 1 个问题未回答</translation>
    </message>
    <message>
        <source>Verdict so far: {verdict}
{n} questions open</source>
        <translation>目前的结论：{verdict}
还有 {n} 个问题未回答</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>{name}[*] — {app}</source>
        <translation>{name}[*] — {app}</translation>
    </message>
    <message>
        <source>Cannot build the report</source>
        <translation>无法生成报告</translation>
    </message>
    <message>
        <source>Report saved to {path}</source>
        <translation>报告已保存到 {path}</translation>
    </message>
    <message>
        <source>Exported the report</source>
        <translation>已导出报告</translation>
    </message>
    <message>
        <source>Preferences not saved: {error}</source>
        <translation>偏好设置未保存：{error}</translation>
    </message>
    <message>
        <source>About {app}</source>
        <translation>关于 {app}</translation>
    </message>
    <message>
        <source>Quit {app}</source>
        <translation>退出 {app}</translation>
    </message>
    <message>
        <source>A probe is running: stop it and quit?</source>
        <translation>探测正在运行：要停止它并退出吗？</translation>
    </message>
</context>
<context>
    <name>NavColumn</name>
    <message>
        <source>Decide</source>
        <translation>决策</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>探测</translation>
    </message>
    <message>
        <source>Learn</source>
        <translation>学习</translation>
    </message>
    <message>
        <source>Answer questions, get a verdict</source>
        <translation>回答问题，得出结论</translation>
    </message>
    <message>
        <source>Measure this machine</source>
        <translation>测量这台机器</translation>
    </message>
    <message>
        <source>GPU and TPU side by side</source>
        <translation>GPU 与 TPU 并排对照</translation>
    </message>
    <message>
        <source>workshop or factory line</source>
        <translation>工坊还是流水线</translation>
    </message>
    <message>
        <source>Pages</source>
        <translation>页面</translation>
    </message>
</context>
<context>
    <name>NoticeBar</name>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Show the folder in the file manager</source>
        <translation>在文件管理器中显示该文件夹</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>{what} to {path}</source>
        <translation>{what}：{path}</translation>
    </message>
    <message>
        <source>{what} from {path}</source>
        <translation>{what}，来自 {path}</translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <source>Preferences</source>
        <translation>偏好设置</translation>
    </message>
    <message>
        <source>{title}:</source>
        <translation>{title}：</translation>
    </message>
</context>
<context>
    <name>PriceFiles</name>
    <message>
        <source>Price catalogues: SkyPilot vms.csv, gpuhunt CSV (*.csv);;All files (*)</source>
        <extracomment>where the imported catalogues are remembered, and how many.</extracomment>
        <translation>价格目录：SkyPilot vms.csv、gpuhunt CSV (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Import prices</source>
        <translation>导入价格</translation>
    </message>
    <message>
        <source>Cannot import prices</source>
        <translation>无法导入价格</translation>
    </message>
    <message>
        <source>{path}: no price for a catalogue chip in it</source>
        <translation>{path}：其中没有目录中任何芯片的价格</translation>
    </message>
    <message>
        <source>Imported prices from {path}</source>
        <translation>已从 {path} 导入价格</translation>
    </message>
</context>
<context>
    <name>SessionFiles</name>
    <message>
        <source>gpu-tpu-app session (*.json);;All files (*)</source>
        <translation>gpu-tpu-app 会话 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Probe run (*.json);;All files (*)</source>
        <translation>探测运行文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <source>The session “{name}” has changes that are not saved. Save them first?</source>
        <translation>会话「{name}」有尚未保存的更改。要先保存吗？</translation>
    </message>
    <message>
        <source>A probe is running: cancel it before starting a new session.</source>
        <translation>探测正在运行：请先取消它，再新建会话。</translation>
    </message>
    <message>
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <source>New session: every answer, run, check and note of the last one is cleared.</source>
        <translation>已新建会话：上一个会话的回答、运行、检查和备注都已清空。</translation>
    </message>
    <message>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <source>Cannot open session</source>
        <translation>无法打开会话</translation>
    </message>
    <message>
        <source>{path}: cannot be shown ({error})</source>
        <translation>{path}：无法显示（{error}）</translation>
    </message>
    <message>
        <source>Opened {path}</source>
        <translation>已打开 {path}</translation>
    </message>
    <message>
        <source>Save session as</source>
        <translation>会话另存为</translation>
    </message>
    <message>
        <source>Cannot save session</source>
        <translation>无法保存会话</translation>
    </message>
    <message>
        <source>{path}: notes: {n} characters, over the {limit} a session keeps; shorten them and save again</source>
        <translation>{path}：备注有 {n} 个字符，超过了会话能保存的 {limit} 个；请删减后再保存</translation>
    </message>
    <message>
        <source>{path}: {error}</source>
        <translation>{path}：{error}</translation>
    </message>
    <message>
        <source>Saved {path}</source>
        <translation>已保存 {path}</translation>
    </message>
    <message>
        <source>Saved the session</source>
        <translation>已保存会话</translation>
    </message>
    <message>
        <source>Import probe run</source>
        <translation>导入探测运行</translation>
    </message>
    <message>
        <source>Cannot import run</source>
        <translation>无法导入运行</translation>
    </message>
    <message>
        <source>{path}: this run is already in the session</source>
        <translation>{path}：这次运行已在会话中</translation>
    </message>
    <message>
        <source>Imported the run of {host} ({n} results)</source>
        <translation>已导入 {host} 的运行（{n} 条结果）</translation>
    </message>
    <message>
        <source>No recent sessions</source>
        <translation>没有最近的会话</translation>
    </message>
    <message>
        <source>&amp;Clear List</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
</context>
<context>
    <name>WelcomeCard</name>
    <message>
        <source>Decide</source>
        <extracomment>About ten seconds a question, read and answered.</extracomment>
        <translation>决策</translation>
    </message>
    <message>
        <source>Answer short questions about your framework, project, workload, team and cloud. The verdict explains itself: hard constraints, the strongest reasons with sources, what would change it, and how long and how much your run would take on real chips.</source>
        <translation>回答关于框架、项目、工作负载、团队和云的几个简短问题。结论会自己说明理由：硬性约束、附带来源的最有力理由、什么会改变结论，以及你的任务在真实芯片上要花多长时间、多少钱。</translation>
    </message>
    <message>
        <source>Probe</source>
        <translation>探测</translation>
    </message>
    <message>
        <source>Measure this machine: matrix throughput, memory bandwidth and compile times, through PyTorch and JAX in separate processes, charted as the numbers arrive. Runs from a cloud GPU or TPU VM open beside your own.</source>
        <translation>测量这台机器：通过 PyTorch 和 JAX 在独立进程中测出矩阵吞吐量、内存带宽和编译时间，数据一到就画进图表。来自云上 GPU 或 TPU 虚拟机的运行可与本机的并排打开。</translation>
    </message>
    <message>
        <source>Learn</source>
        <translation>学习</translation>
    </message>
    <message>
        <source>GPUs and TPUs side by side, topic by topic, every claim with its source, with your own measurements next to the claims they illustrate.</source>
        <translation>GPU 与 TPU 逐个主题并排对照，每条论断都附有来源，你自己的测量结果就放在它所印证的论断旁边。</translation>
    </message>
    <message>
        <source>Welcome to {app}</source>
        <translation>欢迎使用 {app}</translation>
    </message>
    <message>
        <source>GPUs are the workshop: flexible, in every cloud, ready for code that changes every week. TPUs are the factory line: built for large, steady matrix work once the design is settled.</source>
        <translation>GPU 是工坊：灵活，各家云都有，适合每周都在变的代码。TPU 是流水线：为设计定型之后大规模、稳定的矩阵运算而造。</translation>
    </message>
    <message>
        <source>About {minutes} minutes for {n} questions, and every one can be skipped.</source>
        <translation>{n} 个问题约需 {minutes} 分钟，每一个都可以跳过。</translation>
    </message>
    <message>
        <source>&amp;Start the questions</source>
        <translation>开始回答问题(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Probe this machine</source>
        <translation>探测这台机器(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Read side by side</source>
        <translation>并排阅读(&amp;R)</translation>
    </message>
</context>
<context>
    <name>Widgets</name>
    <message>
        <source>Page content</source>
        <translation>页面内容</translation>
    </message>
</context>
<context>
    <name>WindowMenus</name>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <source>Start a new session</source>
        <translation>新建一个会话</translation>
    </message>
    <message>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a saved session</source>
        <translation>打开已保存的会话</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <source>Save the session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <source>Save the session under a new name</source>
        <translation>以新名称保存会话</translation>
    </message>
    <message>
        <source>&amp;Import Run…</source>
        <translation>导入运行(&amp;I)…</translation>
    </message>
    <message>
        <source>Add a probe run file measured here or elsewhere</source>
        <translation>添加在本机或别处测得的探测运行文件</translation>
    </message>
    <message>
        <source>Import &amp;Prices…</source>
        <translation>导入价格(&amp;P)…</translation>
    </message>
    <message>
        <source>Add a SkyPilot or gpuhunt price catalogue from this machine (nothing is downloaded)</source>
        <translation>从本机添加 SkyPilot 或 gpuhunt 价格目录（不下载任何内容）</translation>
    </message>
    <message>
        <source>&amp;Export Report…</source>
        <translation>导出报告(&amp;E)…</translation>
    </message>
    <message>
        <source>Save the recommendation as Markdown, HTML or PDF</source>
        <translation>将建议保存为 Markdown、HTML 或 PDF</translation>
    </message>
    <message>
        <source>&amp;Preferences…</source>
        <translation>偏好设置(&amp;P)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Decide</source>
        <translation>决策(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Probe</source>
        <translation>探测(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Learn</source>
        <translation>学习(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <source>Follow &amp;system</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;User Guide</source>
        <translation>用户指南(&amp;U)</translation>
    </message>
    <message>
        <source>How to use the app</source>
        <translation>如何使用本应用</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Every shortcut of the window</source>
        <translation>窗口的所有快捷键</translation>
    </message>
    <message>
        <source>&amp;Welcome</source>
        <translation>欢迎(&amp;W)</translation>
    </message>
    <message>
        <source>What Decide, Probe and Learn do</source>
        <translation>决策、探测和学习各做什么</translation>
    </message>
    <message>
        <source>&amp;About {app}</source>
        <translation>关于 {app}(&amp;A)</translation>
    </message>
</context>
</TS>
