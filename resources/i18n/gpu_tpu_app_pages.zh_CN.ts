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
    <name>DecideWizard</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="294"/>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="335"/>
        <source>&amp;Back</source>
        <translation>上一页(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="336"/>
        <source>Previous page (Alt+B)</source>
        <translation>上一页（Alt+B）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="337"/>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="456"/>
        <source>&amp;Next</source>
        <translation>下一页(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="338"/>
        <source>Next page (Enter or Alt+N)</source>
        <translation>下一页（Enter 或 Alt+N）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="388"/>
        <source>Filled 1 open answer from the check.</source>
        <translation>已根据检查填写 1 个空着的回答。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="390"/>
        <source>Filled {n} open answers from the check.</source>
        <translation>已根据检查填写 {n} 个空着的回答。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="397"/>
        <source>1 of your answers differs from what was measured and was kept; each shows both, with “Use measured”. Using every measured value: {verdict}.</source>
        <translation>你有 1 个回答与测量结果不同，已保留你的回答；每处都同时显示两者，并附有「使用测量值」。若全部采用测量值：{verdict}。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="402"/>
        <source>{n} of your answers differ from what was measured and were kept; each shows both, with “Use measured”. Using every measured value: {verdict}.</source>
        <translation>你有 {n} 个回答与测量结果不同，已保留你的回答；每处都同时显示两者，并附有「使用测量值」。若全部采用测量值：{verdict}。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="433"/>
        <source>{on_page} of {page_total} answered on this page · {answered} of {total} in all</source>
        <translation>本页已回答 {on_page} / {page_total} · 共已回答 {answered} / {total}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="456"/>
        <source>&amp;Next: see the result</source>
        <translation>下一页：查看结果(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="465"/>
        <source>Step {n}, {title}, finished</source>
        <translation>第 {n} 步，{title}，已完成</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="465"/>
        <source>Step {n}, {title}</source>
        <translation>第 {n} 步，{title}</translation>
    </message>
</context>
<context>
    <name>GuideDialog</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/help.py" line="59"/>
        <source>{app} user guide</source>
        <translation>{app} 用户指南</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="167"/>
        <source>Navigation</source>
        <translation>导航</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="389"/>
        <source>none yet</source>
        <translation>暂无</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="391"/>
        <source>Verdict so far: {verdict}
1 question open</source>
        <translation>目前的结论：{verdict}
还有 1 个问题未回答</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="393"/>
        <source>Verdict so far: {verdict}
{n} questions open</source>
        <translation>目前的结论：{verdict}
还有 {n} 个问题未回答</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="430"/>
        <source>Untitled</source>
        <translation>未命名</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="431"/>
        <source>{name}[*] — {app}</source>
        <translation>{name}[*] — {app}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="475"/>
        <source>Cannot build the report</source>
        <translation>无法生成报告</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="479"/>
        <source>Report saved to {path}</source>
        <translation>报告已保存到 {path}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="480"/>
        <source>Exported the report</source>
        <translation>已导出报告</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="505"/>
        <source>Preferences not saved: {error}</source>
        <translation>偏好设置未保存：{error}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="526"/>
        <source>About {app}</source>
        <translation>关于 {app}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="598"/>
        <source>Quit {app}</source>
        <translation>退出 {app}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/main_window.py" line="599"/>
        <source>A probe is running: stop it and quit?</source>
        <translation>探测正在运行：要停止它并退出吗？</translation>
    </message>
</context>
<context>
    <name>NavColumn</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/nav_column.py" line="13"/>
        <source>Decide</source>
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
    <message>
        <location filename="../../gpu_tpu_app/ui/notice.py" line="53"/>
        <source>{what} from {path}</source>
        <translation>{what}，来自 {path}</translation>
    </message>
</context>
<context>
    <name>PriceFiles</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/price_files.py" line="32"/>
        <source>Price catalogues: SkyPilot vms.csv, gpuhunt CSV (*.csv);;All files (*)</source>
        <extracomment>where the imported catalogues are remembered, and how many.</extracomment>
        <translation>价格目录：SkyPilot vms.csv、gpuhunt CSV (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/price_files.py" line="80"/>
        <source>Import prices</source>
        <translation>导入价格</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/price_files.py" line="88"/>
        <location filename="../../gpu_tpu_app/ui/price_files.py" line="93"/>
        <source>Cannot import prices</source>
        <translation>无法导入价格</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/price_files.py" line="94"/>
        <source>{path}: no price for a catalogue chip in it</source>
        <translation>{path}：其中没有目录中任何芯片的价格</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/price_files.py" line="102"/>
        <source>Imported prices from {path}</source>
        <translation>已从 {path} 导入价格</translation>
    </message>
</context>
<context>
    <name>QuestionCard</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="39"/>
        <source>Skip / don&apos;t know</source>
        <translation>跳过 / 不确定</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="114"/>
        <source>Use measured</source>
        <extracomment>below this page width the question cards stack in one column.</extracomment>
        <translation>使用测量值</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="116"/>
        <source>Use the measured answer for: {question}</source>
        <translation>采用测量得到的回答：{question}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="118"/>
        <source>Replace your answer with the one the model check measured</source>
        <translation>用模型检查测得的回答替换你的回答</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="121"/>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="207"/>
        <source>Show evidence</source>
        <translation>显示证据</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="123"/>
        <source>Evidence the model check found for: {question}</source>
        <translation>模型检查为此找到的证据：{question}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="135"/>
        <source>Learn more: {topic} →</source>
        <translation>了解更多：{topic} →</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="136"/>
        <source>Learn more about {topic}</source>
        <translation>进一步了解 {topic}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="137"/>
        <source>Open the explainer topic “{topic}” in Learn</source>
        <translation>在学习页打开讲解主题「{topic}」</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="170"/>
        <source>Measured in {file}: not decided (see why)</source>
        <translation>在 {file} 中测量：未能确定（查看原因）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="173"/>
        <source>✓ measured in {file}</source>
        <translation>✓ 在 {file} 中测得</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="176"/>
        <source>Measured in {file}: {measured}; you cleared it</source>
        <translation>在 {file} 中测得：{measured}；你已清除它</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="182"/>
        <source>You: {mine}; measured in {file}: {measured}. Yours is kept until you choose.</source>
        <translation>你的回答：{mine}；在 {file} 中测得：{measured}。在你选择之前保留你的回答。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/wizard.py" line="207"/>
        <source>Hide evidence</source>
        <translation>隐藏证据</translation>
    </message>
</context>
<context>
    <name>ReportDialog</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_dialog.py" line="60"/>
        <source>gpu-tpu-app report</source>
        <translation>gpu-tpu-app 报告</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_dialog.py" line="105"/>
        <source>Export report</source>
        <translation>导出报告</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_dialog.py" line="121"/>
        <source>&amp;Format:</source>
        <translation>格式(&amp;F)：</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_dialog.py" line="139"/>
        <source>&amp;Save…</source>
        <translation>保存(&amp;S)…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_dialog.py" line="163"/>
        <source>Save report</source>
        <translation>保存报告</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_dialog.py" line="177"/>
        <source>Cannot save report</source>
        <translation>无法保存报告</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_dialog.py" line="178"/>
        <source>{path}: {error}</source>
        <translation>{path}：{error}</translation>
    </message>
</context>
<context>
    <name>ReportPdf</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="125"/>
        <source>page {n}</source>
        <translation>第 {n} 页</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="341"/>
        <source>(your answer: {answer})</source>
        <extracomment>Joins the characters on either side: no line break there (Qt would break &apos;TFLOP/s&apos; after the slash).</extracomment>
        <translation>（你的回答：{answer}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="346"/>
        <source>{lean}: {reason}</source>
        <translation>{lean}：{reason}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="64"/>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="353"/>
        <source>Verdict</source>
        <extracomment>Page set-up: A4 portrait, 18 mm margins, 300 dots per inch.</extracomment>
        <translation>结论</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="359"/>
        <source>Hard constraints</source>
        <translation>硬性约束</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="367"/>
        <source>Reasons, strongest first</source>
        <translation>理由（最有力的在前）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="379"/>
        <source>No answer leans either way yet.</source>
        <translation>目前还没有回答偏向任何一方。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="380"/>
        <source>What would change this</source>
        <translation>什么会改变结论</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="384"/>
        <source>No single answer change would change the verdict.</source>
        <translation>改动任何单个回答都不会改变结论。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="386"/>
        <source>Next steps</source>
        <translation>下一步</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="389"/>
        <source>Open questions</source>
        <translation>未回答的问题</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="391"/>
        <source>Answers</source>
        <translation>回答</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="394"/>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="395"/>
        <source>Question</source>
        <translation>问题</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="396"/>
        <source>Answer</source>
        <translation>回答</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="402"/>
        <source>Estimate</source>
        <translation>估算</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="407"/>
        <source>Compiled for TPU generations</source>
        <translation>为各代 TPU 编译</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="413"/>
        <source>Probe runs</source>
        <translation>探测运行</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="416"/>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/report_pdf.py" line="420"/>
        <source>Sources</source>
        <translation>知识来源</translation>
    </message>
</context>
<context>
    <name>ResultPage</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="141"/>
        <source>Recommendation</source>
        <extracomment>The estimator card and its table live in ui/estimator_card.py and ui/estimator_table.py; their names stay importable from here. reasons shown before &quot;show all&quot;.</extracomment>
        <translation>建议</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="143"/>
        <source>&amp;Change answers</source>
        <translation>修改回答(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="145"/>
        <source>&amp;Export report…</source>
        <translation>导出报告(&amp;E)…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="162"/>
        <source>Hard constraints</source>
        <translation>硬性约束</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="167"/>
        <source>Strongest reasons</source>
        <translation>最有力的理由</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="179"/>
        <source>What would change this</source>
        <translation>什么会改变结论</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="185"/>
        <source>Next steps</source>
        <translation>下一步</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="191"/>
        <source>Open questions</source>
        <translation>未回答的问题</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="197"/>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="202"/>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="200"/>
        <source>Your notes on this decision; saved with the session and in the report.</source>
        <translation>你对这个决策的备注；会随会话保存，也会写进报告。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="292"/>
        <source>Your answer: {question}: {answer}</source>
        <translation>你的回答：{question}：{answer}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="295"/>
        <source>Open in Learn: {topic}</source>
        <translation>在学习页打开：{topic}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="296"/>
        <source>Sources: {sources}</source>
        <translation>来源：{sources}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="328"/>
        <source>No verdict yet</source>
        <translation>尚无结论</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="331"/>
        <source>{n} of {total} questions answered: answer at least {needed} (any of them; every one can be skipped) and the verdict appears here.</source>
        <translation>已回答 {n} / {total} 个问题：至少回答 {needed} 个（任意几个都行，每个都可以跳过），结论就会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="351"/>
        <source>No answer leans either way yet. Answer the questions to see reasons here.</source>
        <translation>目前还没有回答偏向任何一方。回答问题后，理由会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="355"/>
        <source>weight {weight}</source>
        <translation>权重 {weight}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="361"/>
        <source>Show fewer</source>
        <translation>收起</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="361"/>
        <source>Show {n} more</source>
        <translation>再显示 {n} 条</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="375"/>
        <source>{to} instead of {from_}</source>
        <translation>{to}，而不是「{from_}」</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="378"/>
        <source>{question}: {change}</source>
        <translation>{question}：{change}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="386"/>
        <source>No single answer change would change this verdict.</source>
        <translation>改动任何单个回答都不会改变这个结论。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="408"/>
        <source>({page})</source>
        <translation>（{page}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="415"/>
        <source>1 question skipped; each one answered makes the verdict firmer.</source>
        <translation>跳过了 1 个问题；每多回答一个，结论就更可靠。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/result_page.py" line="417"/>
        <source>{n} questions skipped; each one answered makes the verdict firmer.</source>
        <translation>跳过了 {n} 个问题；每多回答一个，结论就更可靠。</translation>
    </message>
</context>
<context>
    <name>SessionFiles</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="27"/>
        <source>gpu-tpu-app session (*.json);;All files (*)</source>
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
        <source>Imported the run of {host} ({n} results)</source>
        <translation>已导入 {host} 的运行（{n} 条结果）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="248"/>
        <source>No recent sessions</source>
        <translation>没有最近的会话</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/session_files.py" line="252"/>
        <source>&amp;Clear List</source>
        <translation>清空列表(&amp;C)</translation>
    </message>
</context>
<context>
    <name>ShortcutsDialog</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/help.py" line="87"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/help.py" line="89"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/help.py" line="89"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
</context>
<context>
    <name>SummaryCard</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="24"/>
        <source>Matmul</source>
        <translation>矩阵乘法</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="25"/>
        <source>Memory bandwidth</source>
        <translation>内存带宽</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="48"/>
        <source>Each figure is this machine&apos;s best over the chip&apos;s published one.</source>
        <translation>每个数值都是本机最佳值与该芯片公布值之比。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="56"/>
        <source>Each figure is this machine&apos;s best over the chip&apos;s published one: {cell} means the {chip}&apos;s {basis} is {times} times this machine&apos;s {mine}.</source>
        <translation>每个数值都是本机最佳值与该芯片公布值之比：{cell} 表示 {chip} 的{basis}是本机 {mine} 的 {times} 倍。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="67"/>
        <source>Each figure is this machine&apos;s best over the chip&apos;s published one: {cell} means this machine&apos;s {mine} is {times} times the {chip}&apos;s {basis}.</source>
        <translation>每个数值都是本机最佳值与该芯片公布值之比：{cell} 表示本机的 {mine} 是 {chip} 的{basis}的 {times} 倍。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="88"/>
        <source>This machine at a glance</source>
        <translation>本机概览</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="93"/>
        <source>Compare with chips</source>
        <translation>与芯片比较</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="96"/>
        <source>Pick the catalogue GPUs and TPUs to compare with (the roofline draws them too)</source>
        <translation>选择要比较的目录中的 GPU 和 TPU（屋顶线图也会画出它们）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="156"/>
        <source>No trusted matmul or memory bandwidth measured on this machine yet: run the quick or full suite.</source>
        <translation>本机还没有可信的矩阵乘法或内存带宽测量结果：请运行快速或完整套件。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="164"/>
        <source>{kind}: {best}</source>
        <translation>{kind}：{best}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="170"/>
        <source>Each figure is the best trusted point of this machine&apos;s runs: {left_out}.</source>
        <translation>每个数值都是本机各次运行中最佳的可信点：{left_out}。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="174"/>
        <source>Each figure is the best trusted point of this machine&apos;s runs; no point was left out.</source>
        <translation>每个数值都是本机各次运行中最佳的可信点；没有点被排除。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="201"/>
        <source>{best} over {chip}&apos;s {basis}</source>
        <translation>{best} 与 {chip} 的{basis}之比</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="203"/>
        <source>{best} over {chip}&apos;s {basis}: no ratio</source>
        <translation>{best} 与 {chip} 的{basis}之比：无比值</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="210"/>
        <source>Pick chips under Compare with chips to see ratios.</source>
        <translation>在「与芯片比较」中选择芯片即可看到比值。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/summary_card.py" line="216"/>
        <source>From the {check}: run the quick or full suite for figures to compare.</source>
        <translation>来自{check}：请运行快速或完整套件，得到可比较的数值。</translation>
    </message>
</context>
<context>
    <name>VerdictGauge</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/gauge.py" line="54"/>
        <source>Verdict gauge</source>
        <translation>结论仪表</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/gauge.py" line="57"/>
        <source>Verdict {verdict}, score {score} from -1 (workshop, GPU) to +1 (factory line, TPU), confidence {confidence}</source>
        <translation>结论 {verdict}，得分 {score}（-1 为工坊 GPU，+1 为流水线 TPU），置信度{confidence}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/gauge.py" line="118"/>
        <source>Workshop · GPU</source>
        <translation>工坊 · GPU</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/gauge.py" line="122"/>
        <source>Factory line · TPU</source>
        <translation>流水线 · TPU</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/gauge.py" line="132"/>
        <source>confidence: {confidence}</source>
        <translation>置信度：{confidence}</translation>
    </message>
</context>
<context>
    <name>WelcomeCard</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/welcome.py" line="18"/>
        <source>Decide</source>
        <extracomment>About ten seconds a question, read and answered.</extracomment>
        <translation>决策</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/welcome.py" line="20"/>
        <source>Answer short questions about your framework, project, workload, team and cloud. The verdict explains itself: hard constraints, the strongest reasons with sources, what would change it, and how long and how much your run would take on real chips.</source>
        <translation>回答关于框架、项目、工作负载、团队和云的几个简短问题。结论会自己说明理由：硬性约束、附带来源的最有力理由、什么会改变结论，以及你的任务在真实芯片上要花多长时间、多少钱。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/welcome.py" line="29"/>
        <source>Probe</source>
        <translation>探测</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/welcome.py" line="31"/>
        <source>Measure this machine: matrix throughput, memory bandwidth and compile times, through PyTorch and JAX in separate processes, charted as the numbers arrive. Runs from a cloud GPU or TPU VM open beside your own.</source>
        <translation>测量这台机器：通过 PyTorch 和 JAX 在独立进程中测出矩阵吞吐量、内存带宽和编译时间，数据一到就画进图表。来自云上 GPU 或 TPU 虚拟机的运行可与本机的并排打开。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/welcome.py" line="40"/>
        <source>Learn</source>
        <translation>学习</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/welcome.py" line="42"/>
        <source>GPUs and TPUs side by side, topic by topic, every claim with its source, with your own measurements next to the claims they illustrate.</source>
        <translation>GPU 与 TPU 逐个主题并排对照，每条论断都附有来源，你自己的测量结果就放在它所印证的论断旁边。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/welcome.py" line="66"/>
        <source>Welcome to {app}</source>
        <translation>欢迎使用 {app}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/welcome.py" line="69"/>
        <source>GPUs are the workshop: flexible, in every cloud, ready for code that changes every week. TPUs are the factory line: built for large, steady matrix work once the design is settled.</source>
        <translation>GPU 是工坊：灵活，各家云都有，适合每周都在变的代码。TPU 是流水线：为设计定型之后大规模、稳定的矩阵运算而造。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/welcome.py" line="75"/>
        <source>About {minutes} minutes for {n} questions, and every one can be skipped.</source>
        <translation>{n} 个问题约需 {minutes} 分钟，每一个都可以跳过。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/welcome.py" line="95"/>
        <source>&amp;Start the questions</source>
        <translation>开始回答问题(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/welcome.py" line="97"/>
        <source>&amp;Probe this machine</source>
        <translation>探测这台机器(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/welcome.py" line="98"/>
        <source>&amp;Read side by side</source>
        <translation>并排阅读(&amp;R)</translation>
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
<context>
    <name>Widgets</name>
    <message>
        <source>Page content</source>
        <translation>页面内容</translation>
    </message>
</context>
</TS>
