<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LearnPage</name>
    <message>
        <source>Topics</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Topic text</source>
        <translation>主题内容</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/learn.py" line="148"/>
        <source>Search topics, claims, FAQ, glossary…</source>
        <translation>搜索主题、论断、常见问题、术语表…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/learn.py" line="239"/>
        <source>Opens in your web browser: {url}</source>
        <translation>在你的网页浏览器中打开：{url}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/learn.py" line="276"/>
        <source>Key insight {number}: {title}</source>
        <translation>要点 {number}：{title}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/learn.py" line="281"/>
        <source>More</source>
        <translation>更多</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/learn.py" line="287"/>
        <source>{n} questions and answers</source>
        <translation>{n} 个问题与回答</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/learn.py" line="289"/>
        <source>{n} terms</source>
        <translation>{n} 个术语</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/learn.py" line="314"/>
        <source>Nothing matches.</source>
        <translation>没有匹配项。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/learn.py" line="322"/>
        <source>{topics} topic match, {pages} more pages</source>
        <translation>{topics} 个主题匹配，另有 {pages} 个页面</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/learn.py" line="323"/>
        <source>{topics} topics match, {pages} more pages</source>
        <translation>{topics} 个主题匹配，另有 {pages} 个页面</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/learn.py" line="325"/>
        <source>{topics} topic match</source>
        <translation>{topics} 个主题匹配</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/learn.py" line="326"/>
        <source>{topics} topics match</source>
        <translation>{topics} 个主题匹配</translation>
    </message>
</context>
</TS>
