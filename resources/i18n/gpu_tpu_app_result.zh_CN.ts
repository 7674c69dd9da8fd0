<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ReportDialog</name>
    <message>
        <source>building the report from your answers</source>
        <translation>根据你的回答生成报告</translation>
    </message>
    <message>
        <source>laying out the pages</source>
        <translation>排版页面</translation>
    </message>
    <message>
        <source>writing the file</source>
        <translation>写入文件</translation>
    </message>
    <message>
        <source>about {left} s left</source>
        <translation>预计还需约 {left} 秒</translation>
    </message>
    <message>
        <source>about a second or two</source>
        <translation>大约还需一两秒</translation>
    </message>
    <message>
        <source>Step {k} of {n}: {what}; {elapsed} s so far, {estimate}.</source>
        <translation>第 {k} 步，共 {n} 步：{what}；已用 {elapsed} 秒，{estimate}。</translation>
    </message>
    <message>
        <source>Making the PDF…</source>
        <translation>正在生成 PDF…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancelled: no PDF was written.</source>
        <translation>已取消：没有写入 PDF。</translation>
    </message>
    <message>
        <source>gpu-tpu-app report</source>
        <translation>gpu-tpu-app 报告</translation>
    </message>
    <message>
        <source>Export report</source>
        <extracomment>(step, of, words shown) as each step of a PDF goes on</extracomment>
        <translation>导出报告</translation>
    </message>
    <message>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <source>&amp;Save…</source>
        <translation>保存(&amp;S)…</translation>
    </message>
    <message>
        <source>Save report</source>
        <translation>保存报告</translation>
    </message>
    <message>
        <source>Cannot save report</source>
        <translation>无法保存报告</translation>
    </message>
    <message>
        <source>{path}: {error}</source>
        <translation>{path}：{error}</translation>
    </message>
</context>
<context>
    <name>ReportPdf</name>
    <message>
        <source>page {n}</source>
        <translation>第 {n} 页</translation>
    </message>
    <message>
        <source>(your answer: {answer})</source>
        <extracomment>A cell this short (in characters) keeps one line, and so does each side of a short range (&quot;7.65 days - 9.66 days&quot; takes two lines, a figure with its unit on each): a Time column one word wide read &quot;7.65 / days / -&quot;. The table font sizes tried, largest first (as a share of the body font), until the columns fit. Joins the characters on either side: no line break there (Qt would break &apos;TFLOP/s&apos; after the slash).</extracomment>
        <translation>（你的回答：{answer}）</translation>
    </message>
    <message>
        <source>{lean}: {reason}</source>
        <translation>{lean}：{reason}</translation>
    </message>
    <message>
        <source>Verdict</source>
        <extracomment>Page set-up: A4 portrait, 18 mm margins, 300 dots per inch. progress(step, of, what, done): step k of n (&apos;build&apos;, &apos;layout&apos;, &apos;write&apos;), the share of the whole work done (0..1); returns False to cancel (report_pdf then raises ReportCancelled, and nothing is written) The PDF&apos;s steps: building the report data and the gauge, laying out the pages, writing the file.</extracomment>
        <translation>结论</translation>
    </message>
    <message>
        <source>Hard constraints</source>
        <translation>硬性约束</translation>
    </message>
    <message>
        <source>Reasons, strongest first</source>
        <translation>理由（最有力的在前）</translation>
    </message>
    <message>
        <source>No answer leans either way yet.</source>
        <translation>目前还没有回答偏向任何一方。</translation>
    </message>
    <message>
        <source>What would change this</source>
        <translation>什么会改变结论</translation>
    </message>
    <message>
        <source>No single answer change would change the verdict.</source>
        <translation>改动任何单个回答都不会改变结论。</translation>
    </message>
    <message>
        <source>Next steps</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>Open questions</source>
        <translation>未回答的问题</translation>
    </message>
    <message>
        <source>Answers</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <source>Estimate</source>
        <translation>估算</translation>
    </message>
    <message>
        <source>Compiled for TPU generations</source>
        <translation>为各代 TPU 编译</translation>
    </message>
    <message>
        <source>Probe runs</source>
        <translation>探测运行</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>知识来源</translation>
    </message>
</context>
<context>
    <name>ResultPage</name>
    <message>
        <source>Recommendation</source>
        <extracomment>The estimator card and its table live in ui/probe/estimator_card.py and ui/probe/estimator_table.py; their names stay importable from here. reasons shown before &quot;show all&quot;.</extracomment>
        <translation>建议</translation>
    </message>
    <message>
        <source>&amp;Change answers</source>
        <translation>修改回答(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Export report…</source>
        <translation>导出报告(&amp;E)…</translation>
    </message>
    <message>
        <source>Hard constraints</source>
        <translation>硬性约束</translation>
    </message>
    <message>
        <source>Strongest reasons</source>
        <translation>最有力的理由</translation>
    </message>
    <message>
        <source>What would change this</source>
        <translation>什么会改变结论</translation>
    </message>
    <message>
        <source>Next steps</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>Open questions</source>
        <translation>未回答的问题</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Your notes on this decision; saved with the session and in the report.</source>
        <translation>你对这个决策的备注；会随会话保存，也会写进报告。</translation>
    </message>
    <message>
        <source>Your answer: {question}: {answer}</source>
        <translation>你的回答：{question}：{answer}</translation>
    </message>
    <message>
        <source>Open in Learn: {topic}</source>
        <translation>在学习页打开：{topic}</translation>
    </message>
    <message>
        <source>Sources: {sources}</source>
        <translation>来源：{sources}</translation>
    </message>
    <message>
        <source>No verdict yet</source>
        <translation>尚无结论</translation>
    </message>
    <message>
        <source>{n} of {total} questions answered: answer at least {needed} (any of them; every one can be skipped) and the verdict appears here.</source>
        <translation>已回答 {n} / {total} 个问题：至少回答 {needed} 个（任意几个都行，每个都可以跳过），结论就会显示在这里。</translation>
    </message>
    <message>
        <source>No answer leans either way yet. Answer the questions to see reasons here.</source>
        <translation>目前还没有回答偏向任何一方。回答问题后，理由会显示在这里。</translation>
    </message>
    <message>
        <source>weight {weight}</source>
        <translation>权重 {weight}</translation>
    </message>
    <message>
        <source>Show fewer</source>
        <translation>收起</translation>
    </message>
    <message>
        <source>Show {n} more</source>
        <translation>再显示 {n} 条</translation>
    </message>
    <message>
        <source>{to} instead of {from_}</source>
        <translation>{to}，而不是「{from_}」</translation>
    </message>
    <message>
        <source>{question}: {change}</source>
        <translation>{question}：{change}</translation>
    </message>
    <message>
        <source>No single answer change would change this verdict.</source>
        <translation>改动任何单个回答都不会改变这个结论。</translation>
    </message>
    <message>
        <source>({page})</source>
        <translation>（{page}）</translation>
    </message>
    <message>
        <source>1 question skipped; each one answered makes the verdict firmer.</source>
        <translation>跳过了 1 个问题；每多回答一个，结论就更可靠。</translation>
    </message>
    <message>
        <source>{n} questions skipped; each one answered makes the verdict firmer.</source>
        <translation>跳过了 {n} 个问题；每多回答一个，结论就更可靠。</translation>
    </message>
</context>
<context>
    <name>SummaryCard</name>
    <message>
        <source>Matmul</source>
        <translation>矩阵乘法</translation>
    </message>
    <message>
        <source>Memory bandwidth</source>
        <translation>内存带宽</translation>
    </message>
    <message>
        <source>Each figure is this machine&apos;s best over the chip&apos;s published one.</source>
        <translation>每个数值都是本机最佳值与该芯片公布值之比。</translation>
    </message>
    <message>
        <source>Each figure is this machine&apos;s best over the chip&apos;s published one: {cell} means the {chip}&apos;s {basis} is {times} times this machine&apos;s {mine}.</source>
        <translation>每个数值都是本机最佳值与该芯片公布值之比：{cell} 表示 {chip} 的{basis}是本机 {mine} 的 {times} 倍。</translation>
    </message>
    <message>
        <source>Each figure is this machine&apos;s best over the chip&apos;s published one: {cell} means this machine&apos;s {mine} is {times} times the {chip}&apos;s {basis}.</source>
        <translation>每个数值都是本机最佳值与该芯片公布值之比：{cell} 表示本机的 {mine} 是 {chip} 的{basis}的 {times} 倍。</translation>
    </message>
    <message>
        <source>This machine at a glance</source>
        <translation>本机概览</translation>
    </message>
    <message>
        <source>Compare with chips</source>
        <translation>与芯片比较</translation>
    </message>
    <message>
        <source>Pick the catalogue GPUs and TPUs to compare with (the roofline draws them too)</source>
        <translation>选择要比较的目录中的 GPU 和 TPU（屋顶线图也会画出它们）</translation>
    </message>
    <message>
        <source>No trusted matmul or memory bandwidth measured on this machine yet: run the quick or full suite.</source>
        <translation>本机还没有可信的矩阵乘法或内存带宽测量结果：请运行快速或完整套件。</translation>
    </message>
    <message>
        <source>{kind}: {best}</source>
        <translation>{kind}：{best}</translation>
    </message>
    <message>
        <source>Each figure is the best trusted point of this machine&apos;s runs: {left_out}.</source>
        <translation>每个数值都是本机各次运行中最佳的可信点：{left_out}。</translation>
    </message>
    <message>
        <source>Each figure is the best trusted point of this machine&apos;s runs; no point was left out.</source>
        <translation>每个数值都是本机各次运行中最佳的可信点；没有点被排除。</translation>
    </message>
    <message>
        <source>{best} over {chip}&apos;s {basis}</source>
        <translation>{best} 与 {chip} 的{basis}之比</translation>
    </message>
    <message>
        <source>{best} over {chip}&apos;s {basis}: no ratio</source>
        <translation>{best} 与 {chip} 的{basis}之比：无比值</translation>
    </message>
    <message>
        <source>Pick chips under Compare with chips to see ratios.</source>
        <translation>在「与芯片比较」中选择芯片即可看到比值。</translation>
    </message>
    <message>
        <source>From the {check}: run the quick or full suite for figures to compare.</source>
        <translation>来自{check}：请运行快速或完整套件，得到可比较的数值。</translation>
    </message>
    <message>
        <source>From a run that did not finish: a complete run replaces these figures.</source>
        <translation>来自一次未完成的运行：完整运行的结果将取代这些数值。</translation>
    </message>
</context>
<context>
    <name>VerdictGauge</name>
    <message>
        <source>Verdict gauge</source>
        <translation>结论仪表</translation>
    </message>
    <message>
        <source>Verdict {verdict}, score {score} from -1 (workshop, GPU) to +1 (factory line, TPU), confidence {confidence}</source>
        <translation>结论 {verdict}，得分 {score}（-1 为工坊 GPU，+1 为流水线 TPU），置信度{confidence}</translation>
    </message>
    <message>
        <source>Workshop · GPU</source>
        <translation>工坊 · GPU</translation>
    </message>
    <message>
        <source>Factory line · TPU</source>
        <translation>流水线 · TPU</translation>
    </message>
    <message>
        <source>confidence: {confidence}</source>
        <translation>置信度：{confidence}</translation>
    </message>
</context>
</TS>
