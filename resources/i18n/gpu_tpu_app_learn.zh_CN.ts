<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>LearnPage</name>
    <message>
        <source>Search topics, claims, FAQ, glossary…</source>
        <extracomment>Horizontal padding of a topic-list row, in pixels on each side (the tree&apos;s style sheet uses it).</extracomment>
        <translation>搜索主题、论断、常见问题、术语表…</translation>
    </message>
    <message>
        <source>Topics</source>
        <translation>主题</translation>
    </message>
    <message>
        <source>Topic text</source>
        <translation>主题内容</translation>
    </message>
    <message>
        <source>Opens in your web browser: {url}</source>
        <translation>在你的网页浏览器中打开：{url}</translation>
    </message>
    <message>
        <source>Key insight {number}: {title}</source>
        <translation>要点 {number}：{title}</translation>
    </message>
    <message>
        <source>More</source>
        <translation>更多</translation>
    </message>
    <message>
        <source>{n} questions and answers</source>
        <translation>{n} 个问题与回答</translation>
    </message>
    <message>
        <source>{n} terms</source>
        <translation>{n} 个术语</translation>
    </message>
    <message>
        <source>Nothing matches.</source>
        <translation>没有匹配项。</translation>
    </message>
    <message>
        <source>{topics} topic match, {pages} more pages</source>
        <translation>{topics} 个主题匹配，另有 {pages} 个页面</translation>
    </message>
    <message>
        <source>{topics} topics match, {pages} more pages</source>
        <translation>{topics} 个主题匹配，另有 {pages} 个页面</translation>
    </message>
    <message>
        <source>{topics} topic match</source>
        <translation>{topics} 个主题匹配</translation>
    </message>
    <message>
        <source>{topics} topics match</source>
        <translation>{topics} 个主题匹配</translation>
    </message>
</context>
</TS>
