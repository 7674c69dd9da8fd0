<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BackForward</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/back_forward.py" line="42"/>
        <source>&amp;Back</source>
        <translation>后退(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/back_forward.py" line="42"/>
        <source>Go back to the previous page</source>
        <translation>回到上一页</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/back_forward.py" line="45"/>
        <source>&amp;Forward</source>
        <translation>前进(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/back_forward.py" line="45"/>
        <source>Go forward again</source>
        <translation>再次前进</translation>
    </message>
</context>
<context>
    <name>GuideDialog</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/help.py" line="56"/>
        <source>{app} user guide</source>
        <translation>{app} 用户指南</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="164"/>
        <source>Navigation</source>
        <translation>导航</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="369"/>
        <source>none yet</source>
        <translation>暂无</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="371"/>
        <source>Verdict so far: {verdict}
1 question open</source>
        <translation>目前的结论：{verdict}
还有 1 个问题未回答</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="373"/>
        <source>Verdict so far: {verdict}
{n} questions open</source>
        <translation>目前的结论：{verdict}
还有 {n} 个问题未回答</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="410"/>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="411"/>
        <source>{name}[*] — {app}</source>
        <translation>{name}[*] — {app}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="455"/>
        <source>Cannot build the report</source>
        <translation>无法生成报告</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="459"/>
        <source>Report saved to {path}</source>
        <translation>报告已保存到 {path}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="460"/>
        <source>Exported the report</source>
        <translation>已导出报告</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="482"/>
        <source>Preferences not saved: {error}</source>
        <translation>偏好设置未保存：{error}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="491"/>
        <source>About {app}</source>
        <translation>关于 {app}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="560"/>
        <source>Quit {app}</source>
        <translation>退出 {app}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="561"/>
        <source>A probe is running: stop it and quit?</source>
        <translation>探测正在运行：要停止它并退出吗？</translation>
    </message>
</context>
<context>
    <name>NavColumn</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/nav_column.py" line="13"/>
        <source>Decide</source>
        <extracomment>page titles and hints in English; shown through QCoreApplication.translate(&quot;NavColumn&quot;, ...)</extracomment>
        <translation>决策</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/nav_column.py" line="14"/>
        <source>Probe</source>
        <translation>探测</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/nav_column.py" line="15"/>
        <source>Learn</source>
        <translation>学习</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/nav_column.py" line="18"/>
        <source>Answer questions, get a verdict</source>
        <translation>回答问题，得出结论</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/nav_column.py" line="19"/>
        <source>Measure this machine</source>
        <translation>测量这台机器</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/nav_column.py" line="20"/>
        <source>GPU and TPU side by side</source>
        <translation>GPU 与 TPU 并排对照</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/nav_column.py" line="37"/>
        <source>workshop or factory line</source>
        <translation>工坊还是流水线</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/nav_column.py" line="43"/>
        <source>Pages</source>
        <translation>页面</translation>
    </message>
</context>
<context>
    <name>NoticeBar</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/notice.py" line="30"/>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/notice.py" line="31"/>
        <source>Show the folder in the file manager</source>
        <translation>在文件管理器中显示该文件夹</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/notice.py" line="33"/>
        <source>Dismiss</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/notice.py" line="45"/>
        <source>{what} to {path}</source>
        <translation>{what}：{path}</translation>
    </message>
</context>
<context>
    <name>SessionFiles</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="27"/>
        <source>gpu-tpu-app session (*.json);;All files (*)</source>
        <extracomment>file-dialog filters in English, shown through QCoreApplication.translate(&quot;SessionFiles&quot;, ...)</extracomment>
        <translation>gpu-tpu-app 会话 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="28"/>
        <source>Probe run (*.json);;All files (*)</source>
        <translation>探测运行文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="54"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="74"/>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="78"/>
        <source>Unsaved changes</source>
        <translation>未保存的更改</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="79"/>
        <source>The session “{name}” has changes that are not saved. Save them first?</source>
        <translation>会话「{name}」有尚未保存的更改。要先保存吗？</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="91"/>
        <source>A probe is running: cancel it before starting a new session.</source>
        <translation>探测正在运行：请先取消它，再新建会话。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="97"/>
        <source>New session</source>
        <translation>新建会话</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="98"/>
        <source>New session: every answer, run, check and note of the last one is cleared.</source>
        <translation>已新建会话：上一个会话的回答、运行、检查和备注都已清空。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="108"/>
        <source>Open session</source>
        <translation>打开会话</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="117"/>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="124"/>
        <source>Cannot open session</source>
        <translation>无法打开会话</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="125"/>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="206"/>
        <source>{path}: cannot be shown ({error})</source>
        <translation>{path}：无法显示（{error}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="133"/>
        <source>Opened {path}</source>
        <translation>已打开 {path}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="149"/>
        <source>Save session as</source>
        <translation>会话另存为</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="161"/>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="172"/>
        <source>Cannot save session</source>
        <translation>无法保存会话</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="163"/>
        <source>{path}: notes: {n} characters, over the {limit} a session keeps; shorten them and save again</source>
        <translation>{path}：备注有 {n} 个字符，超过了会话能保存的 {limit} 个；请删减后再保存</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="173"/>
        <source>{path}: {error}</source>
        <translation>{path}：{error}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="178"/>
        <source>Saved {path}</source>
        <translation>已保存 {path}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="179"/>
        <source>Saved the session</source>
        <translation>已保存会话</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="186"/>
        <source>Import probe run</source>
        <translation>导入探测运行</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="194"/>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="205"/>
        <source>Cannot import run</source>
        <translation>无法导入运行</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="198"/>
        <source>{path}: this run is already in the session</source>
        <translation>{path}：这次运行已在会话中</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="210"/>
        <source>Imported the run from {host} ({n} results)</source>
        <translation>已导入来自 {host} 的运行（{n} 个结果）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="246"/>
        <source>No recent sessions</source>
        <translation>没有最近的会话</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="250"/>
        <source>&amp;Clear List</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/help.py" line="83"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/help.py" line="85"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/help.py" line="85"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
</context>
<context>
    <name>WindowMenus</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="51"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="53"/>
        <source>&amp;New</source>
        <translation>新建(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="53"/>
        <source>Start a new session</source>
        <translation>新建一个会话</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="56"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="59"/>
        <source>Open a saved session</source>
        <translation>打开已保存的会话</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="62"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="62"/>
        <source>Save the session</source>
        <translation>保存会话</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="65"/>
        <source>Save &amp;As…</source>
        <translation>另存为(&amp;A)…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="65"/>
        <source>Save the session under a new name</source>
        <translation>以新名称保存会话</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="68"/>
        <source>&amp;Import Run…</source>
        <translation>导入运行(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="71"/>
        <source>Add a probe run file measured here or elsewhere</source>
        <translation>添加在本机或别处测得的探测运行文件</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="74"/>
        <source>Import &amp;Prices…</source>
        <translation>导入价格(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="77"/>
        <source>Add a SkyPilot or gpuhunt price catalogue from this machine (nothing is downloaded)</source>
        <translation>从本机添加 SkyPilot 或 gpuhunt 价格目录（不下载任何内容）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="80"/>
        <source>&amp;Export Report…</source>
        <translation>导出报告(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="83"/>
        <source>Save the recommendation as Markdown, HTML or PDF</source>
        <translation>将建议保存为 Markdown、HTML 或 PDF</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="87"/>
        <source>&amp;Preferences…</source>
        <translation>偏好设置(&amp;P)…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="90"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="102"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="104"/>
        <source>&amp;Decide</source>
        <translation>决策(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="104"/>
        <source>&amp;Probe</source>
        <translation>探测(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="104"/>
        <source>&amp;Learn</source>
        <translation>学习(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="110"/>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="114"/>
        <source>Follow &amp;system</source>
        <translation>跟随系统(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="115"/>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="116"/>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="129"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="131"/>
        <source>&amp;User Guide</source>
        <translation>用户指南(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="134"/>
        <source>How to use the app</source>
        <translation>如何使用本应用</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="137"/>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="137"/>
        <source>Every shortcut of the window</source>
        <translation>窗口的所有快捷键</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="140"/>
        <source>&amp;Welcome</source>
        <translation>欢迎(&amp;W)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="140"/>
        <source>What Decide, Probe and Learn do</source>
        <translation>决策、探测和学习各做什么</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/menus.py" line="142"/>
        <source>&amp;About {app}</source>
        <translation>关于 {app}(&amp;A)</translation>
    </message>
</context>
</TS>
