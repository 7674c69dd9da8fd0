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
    <name>ChineseFont</name>
    <message>
        <source>No Chinese font is installed: the PDF would show empty boxes for Chinese text. Install one (Debian/Ubuntu: sudo apt install fonts-noto-cjk) and export again, or save as HTML or Markdown.</source>
        <translation>未安装中文字体：PDF 中的中文会显示为空白方框。请先安装一款中文字体（Debian/Ubuntu：sudo apt install fonts-noto-cjk）后重新导出，或改存为 HTML 或 Markdown。</translation>
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
</TS>
