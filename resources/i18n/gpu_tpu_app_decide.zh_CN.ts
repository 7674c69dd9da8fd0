<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>DecideWizard</name>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation>上一页(&amp;B)</translation>
    </message>
    <message>
        <source>Previous page (Alt+B)</source>
        <translation>上一页（Alt+B）</translation>
    </message>
    <message>
        <source>&amp;Next</source>
        <translation>下一页(&amp;N)</translation>
    </message>
    <message>
        <source>Next page (Enter or Alt+N)</source>
        <translation>下一页（Enter 或 Alt+N）</translation>
    </message>
    <message>
        <source>Filled 1 open answer from the check.</source>
        <translation>已根据检查填写 1 个空着的回答。</translation>
    </message>
    <message>
        <source>Filled {n} open answers from the check.</source>
        <translation>已根据检查填写 {n} 个空着的回答。</translation>
    </message>
    <message>
        <source>1 of your answers differs from what was measured and was kept; each shows both, with “Use measured”. Using every measured value: {verdict}.</source>
        <translation>你有 1 个回答与测量结果不同，已保留你的回答；每处都同时显示两者，并附有「使用测量值」。若全部采用测量值：{verdict}。</translation>
    </message>
    <message>
        <source>{n} of your answers differ from what was measured and were kept; each shows both, with “Use measured”. Using every measured value: {verdict}.</source>
        <translation>你有 {n} 个回答与测量结果不同，已保留你的回答；每处都同时显示两者，并附有「使用测量值」。若全部采用测量值：{verdict}。</translation>
    </message>
    <message>
        <source>{on_page} of {page_total} answered on this page · {answered} of {total} in all</source>
        <translation>本页已回答 {on_page} / {page_total} · 共已回答 {answered} / {total}</translation>
    </message>
    <message>
        <source>&amp;Next: see the result</source>
        <translation>下一页：查看结果(&amp;N)</translation>
    </message>
    <message>
        <source>Step {n}, {title}, finished</source>
        <translation>第 {n} 步，{title}，已完成</translation>
    </message>
    <message>
        <source>Step {n}, {title}</source>
        <translation>第 {n} 步，{title}</translation>
    </message>
</context>
<context>
    <name>QuestionCard</name>
    <message>
        <source>Skip / don&apos;t know</source>
        <translation>跳过 / 不确定</translation>
    </message>
    <message>
        <source>Use measured</source>
        <extracomment>below this page width the question cards stack in one column.</extracomment>
        <translation>使用测量值</translation>
    </message>
    <message>
        <source>Use the measured answer for: {question}</source>
        <translation>采用测量得到的回答：{question}</translation>
    </message>
    <message>
        <source>Replace your answer with the one the model check measured</source>
        <translation>用模型检查测得的回答替换你的回答</translation>
    </message>
    <message>
        <source>Show evidence</source>
        <translation>显示证据</translation>
    </message>
    <message>
        <source>Evidence the model check found for: {question}</source>
        <translation>模型检查为此找到的证据：{question}</translation>
    </message>
    <message>
        <source>Learn more: {topic} →</source>
        <translation>了解更多：{topic} →</translation>
    </message>
    <message>
        <source>Learn more about {topic}</source>
        <translation>进一步了解 {topic}</translation>
    </message>
    <message>
        <source>Open the explainer topic “{topic}” in Learn</source>
        <translation>在学习页打开讲解主题「{topic}」</translation>
    </message>
    <message>
        <source>Measured in {file}: not decided (see why)</source>
        <translation>在 {file} 中测量：未能确定（查看原因）</translation>
    </message>
    <message>
        <source>✓ measured in {file}</source>
        <translation>✓ 在 {file} 中测得</translation>
    </message>
    <message>
        <source>Measured in {file}: {measured}; you cleared it</source>
        <translation>在 {file} 中测得：{measured}；你已清除它</translation>
    </message>
    <message>
        <source>You: {mine}; measured in {file}: {measured}. Yours is kept until you choose.</source>
        <translation>你的回答：{mine}；在 {file} 中测得：{measured}。在你选择之前保留你的回答。</translation>
    </message>
    <message>
        <source>Hide evidence</source>
        <translation>隐藏证据</translation>
    </message>
</context>
</TS>
