<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BandwidthChart</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_bandwidth.py" line="34"/>
        <source>Memory and transfer bandwidth (best of each kernel)</source>
        <translation>内存与传输带宽（各内核的最佳值）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_bandwidth.py" line="39"/>
        <source>bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_bandwidth.py" line="57"/>
        <source>bandwidth results</source>
        <translation>带宽结果</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_bandwidth.py" line="58"/>
        <source>copy, triad and transfer appear here.</source>
        <translation>copy、triad 与传输的结果会显示在这里。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_bandwidth.py" line="80"/>
        <source>dashed, hollow: not trusted (hover a bar for why)</source>
        <translation>虚线空心：不可信（悬停在柱上查看原因）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_bandwidth.py" line="139"/>
        <source>{series} (not trusted)</source>
        <translation>{series}（不可信）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_bandwidth.py" line="146"/>
        <source>{value} (not trusted)</source>
        <translation>{value}（不可信）</translation>
    </message>
</context>
<context>
    <name>ChartsView</name>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/charts.py" line="136"/>
        <source>Matmul</source>
        <translation>矩阵乘法</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/charts.py" line="137"/>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/charts.py" line="138"/>
        <source>Roofline</source>
        <translation>屋顶线（roofline）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/charts.py" line="139"/>
        <source>Compile (JAX)</source>
        <translation>编译（JAX）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/charts.py" line="140"/>
        <source>Collectives</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/charts.py" line="201"/>
        <source>{path}: choose a .png or .svg file name</source>
        <translation>{path}：请选择 .png 或 .svg 文件名</translation>
    </message>
</context>
<context>
    <name>CheckMenuButton</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="72"/>
        <source>All (clear the choice)</source>
        <translation>全部（清除选择）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="93"/>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="95"/>
        <source>{title}: {chosen}</source>
        <translation>{title}：{chosen}</translation>
    </message>
</context>
<context>
    <name>CollectiveChart</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_collectives.py" line="36"/>
        <source>Collectives across processes: bus bandwidth</source>
        <translation>跨进程集合通信：总线带宽</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_collectives.py" line="44"/>
        <source>Which collective to draw</source>
        <translation>要绘制哪种集合通信</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_collectives.py" line="46"/>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_collectives.py" line="49"/>
        <source>Measure across {n} processes</source>
        <translation>跨 {n} 个进程测量</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_collectives.py" line="52"/>
        <source>Start {n} processes on this machine and measure all-reduce, all-gather and reduce-scatter between them (about a minute per backend)</source>
        <translation>在本机启动 {n} 个进程，测量它们之间的 all-reduce、all-gather 和 reduce-scatter（每个后端约一分钟）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_collectives.py" line="57"/>
        <source>bus bandwidth = message size ÷ time × 2(n−1)/n (all-reduce) or (n−1)/n, as nccl-tests</source>
        <translation>总线带宽 = 消息大小 ÷ 时间 × 2(n−1)/n（all-reduce）或 (n−1)/n，与 nccl-tests 相同</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_collectives.py" line="61"/>
        <source>message size (log scale)</source>
        <translation>消息大小（对数刻度）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_collectives.py" line="62"/>
        <source>bus bandwidth, B/s (log scale)</source>
        <translation>总线带宽，B/s（对数刻度）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_collectives.py" line="80"/>
        <source>No collectives across processes yet: press “Measure across {n} processes” above,
or import a run measured across machines.</source>
        <translation>还没有跨进程的集合通信结果：点击上方的「跨 {n} 个进程测量」，
或导入一个跨机器测量的运行。</translation>
    </message>
</context>
<context>
    <name>CollectiveRun</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/collective_run.py" line="97"/>
        <source>the collective run could not start</source>
        <extracomment>Ranks started: the smallest group that has something to exchange. Measuring time per engine, and how long to wait for the ranks to join (seconds).</extracomment>
        <translation>集合通信运行无法启动</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/collective_run.py" line="101"/>
        <source>Cancelled the collective run; nothing was added.</source>
        <translation>已取消集合通信运行；未添加任何内容。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/collective_run.py" line="108"/>
        <source>The collective run wrote a file this app cannot read: {problem}</source>
        <translation>集合通信运行写出的文件本应用无法读取：{problem}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/collective_run.py" line="113"/>
        <source>Measured collectives across {n} processes: {ok} points.</source>
        <translation>已跨 {n} 个进程测量集合通信：{ok} 个测量点。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/collective_run.py" line="117"/>
        <source>exit status {code}</source>
        <translation>退出状态 {code}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/collective_run.py" line="118"/>
        <source>The collective run did not finish: {why}</source>
        <translation>集合通信运行未完成：{why}</translation>
    </message>
</context>
<context>
    <name>CompileCard</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/compile_card.py" line="40"/>
        <location filename="../../gpu_tpu_app/ui/compile_card.py" line="51"/>
        <source>Compiled for TPU generations</source>
        <extracomment>TableRow fields in TABLE_HEADERS order.</extracomment>
        <translation>为各代 TPU 编译</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/compile_card.py" line="71"/>
        <source>{file}: not compiled for TPU generations. {detail}</source>
        <translation>{file}：未为各代 TPU 编译。{detail}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/compile_card.py" line="82"/>
        <source>{file}, compiled on this computer by the TPU compiler (libtpu {libtpu}) for 1 chip of each generation, without a TPU. Per chip: memory from memory_analysis(), work from cost_analysis(); the roofline step is the slower of FLOPs at the bf16 peak and bytes at the memory bandwidth (catalogue figures). Hover a row for the compiler&apos;s reason or the working.</source>
        <translation>{file} 已在本机由 TPU 编译器（libtpu {libtpu}）为每代 1 块芯片编译，无需 TPU。每块芯片：内存来自 memory_analysis()，计算量来自 cost_analysis()；屋顶线步时取「FLOPs 按 bf16 峰值」与「字节按内存带宽」两者中较慢者（目录数据）。悬停在某行上可查看编译器给出的原因或计算过程。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/compile_card.py" line="90"/>
        <source>{file}, compiled on this computer by the TPU compiler (libtpu {libtpu}) for {n} chips of each generation, without a TPU. Per chip: memory from memory_analysis(), work from cost_analysis(); the roofline step is the slower of FLOPs at the bf16 peak and bytes at the memory bandwidth (catalogue figures). Hover a row for the compiler&apos;s reason or the working.</source>
        <translation>{file} 已在本机由 TPU 编译器（libtpu {libtpu}）为每代 {n} 块芯片编译，无需 TPU。每块芯片：内存来自 memory_analysis()，计算量来自 cost_analysis()；屋顶线步时取「FLOPs 按 bf16 峰值」与「字节按内存带宽」两者中较慢者（目录数据）。悬停在某行上可查看编译器给出的原因或计算过程。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/compile_card.py" line="109"/>
        <source>Layout: {layout}.</source>
        <translation>布局：{layout}。</translation>
    </message>
</context>
<context>
    <name>CompileWaterfall</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_compile.py" line="41"/>
        <source>cold first call</source>
        <extracomment>one hue per compile phase, none of them shared with a neighbour in the waterfall each phase&apos;s name (English; phase_label gives it in the language in use)</extracomment>
        <translation>冷启动首次调用</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_compile.py" line="42"/>
        <source>trace</source>
        <translation>追踪（trace）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_compile.py" line="43"/>
        <source>trace + lower</source>
        <translation>追踪 + 下降（lowering）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_compile.py" line="44"/>
        <source>compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_compile.py" line="45"/>
        <source>first call</source>
        <translation>首次调用</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_compile.py" line="46"/>
        <source>rest of the first call (run)</source>
        <translation>首次调用的其余部分（执行）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_compile.py" line="47"/>
        <source>steady call</source>
        <translation>稳态调用</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_compile.py" line="60"/>
        <source>JAX compile waterfall: the first call of a new jitted function, then a steady call</source>
        <translation>JAX 编译瀑布图：新 jit 函数的首次调用，然后是一次稳态调用</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_compile.py" line="70"/>
        <source>elapsed time (linear)</source>
        <translation>经过时间（线性刻度）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_compile.py" line="90"/>
        <source>JAX compile results</source>
        <translation>JAX 编译结果</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_compile.py" line="91"/>
        <source>the quick or full suite with jax</source>
        <translation>用 jax 运行快速或完整套件</translation>
    </message>
</context>
<context>
    <name>DeviceLister</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="479"/>
        <source>could not start</source>
        <translation>无法启动</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="480"/>
        <source>could not start the worker: {reason}</source>
        <translation>无法启动工作进程：{reason}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="496"/>
        <source>device listing worker stopped (status {code}): {tail}</source>
        <translation>设备列举工作进程已停止（状态 {code}）：{tail}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="500"/>
        <source>device listing worker stopped (status {code})</source>
        <translation>设备列举工作进程已停止（状态 {code}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="512"/>
        <source>the worker reported no device</source>
        <translation>工作进程未报告任何设备</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="523"/>
        <source>no answer within {seconds} s</source>
        <translation>{seconds} 秒内没有响应</translation>
    </message>
</context>
<context>
    <name>DevicesView</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="71"/>
        <source>key: {key}   ({n} of this kind)</source>
        <translation>键：{key}   （此类共 {n} 个）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="72"/>
        <source>memory: {memory} ({note})</source>
        <translation>内存：{memory}（{note}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="73"/>
        <source>memory: {memory}</source>
        <translation>内存：{memory}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="74"/>
        <source>last-level cache: {mib} MiB</source>
        <translation>末级缓存：{mib} MiB</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="75"/>
        <source>warm-up before the first point: {seconds} s</source>
        <translation>首个测量点前的预热：{seconds} 秒</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="76"/>
        <source>versions: {versions}</source>
        <translation>版本：{versions}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="77"/>
        <source>CPU: {model}; {cores} cores, {threads} threads used</source>
        <translation>CPU：{model}；{cores} 核，使用 {threads} 个线程</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="78"/>
        <source>caches: {caches}</source>
        <translation>缓存：{caches}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="90"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="90"/>
        <source>Catalogue match</source>
        <translation>目录匹配</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="90"/>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="106"/>
        <source>looking for devices…</source>
        <translation>正在查找设备…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="145"/>
        <source>{backend}: {note}</source>
        <translation>{backend}：{note}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="145"/>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="148"/>
        <source>{backend}: not usable</source>
        <translation>{backend}：不可用</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="150"/>
        <source>no reason given</source>
        <translation>未给出原因</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="159"/>
        <source>{backend}: 1 device</source>
        <translation>{backend}：1 台设备</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="161"/>
        <source>{backend}: {n} devices</source>
        <translation>{backend}：{n} 台设备</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="173"/>
        <source>no catalogue entry</source>
        <translation>无目录条目</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="180"/>
        <source>No catalogue chip matches this device name, so % of spec is not shown.</source>
        <translation>目录中没有与此设备名称匹配的芯片，因此不显示「占规格 %」。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/devices_view.py" line="186"/>
        <source>Catalogue entry {id}: % of spec uses its published peaks.</source>
        <translation>目录条目 {id}：「占规格 %」使用其公布的峰值。</translation>
    </message>
</context>
<context>
    <name>EnvsView</name>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop looking for environments now; the list shown stays</source>
        <translation>立即停止查找环境；当前显示的列表保留</translation>
    </message>
    <message>
        <source>Looking for Python environments (venvs, conda, pyenv) and asking each for its torch and JAX: {elapsed} s so far, {limit} s at most.</source>
        <translation>正在查找 Python 环境（venv、conda、pyenv）并询问每个环境的 torch 和 JAX：已用 {elapsed} 秒，最多 {limit} 秒。</translation>
    </message>
    <message>
        <source>Stopped looking for environments; the list shown is the last one.</source>
        <translation>已停止查找环境；显示的是上一次的列表。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="41"/>
        <source>, </source>
        <translation>、</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="116"/>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="44"/>
        <source>{name} (Python {python}): not usable</source>
        <extracomment>The whole listing may take this long (queries run four at a time, each with its own limit). Output beyond this is not read.</extracomment>
        <translation>{name}（Python {python}）：不可用</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="47"/>
        <source>{name} (Python {python}; {frameworks})</source>
        <translation>{name}（Python {python}；{frameworks}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="48"/>
        <source>no frameworks</source>
        <translation>无框架</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="58"/>
        <source>the CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="60"/>
        <source>the Apple GPU (MPS)</source>
        <translation>Apple GPU（MPS）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="70"/>
        <source>PyTorch CPU-only build</source>
        <translation>PyTorch 仅 CPU 版本</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="72"/>
        <source>JAX for the CPU</source>
        <translation>CPU 版 JAX</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="75"/>
        <source>PyTorch {build} build</source>
        <translation>PyTorch {build} 版本</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="82"/>
        <source>JAX {build} build {plugin}</source>
        <translation>JAX {build} 版本 {plugin}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="94"/>
        <source>not usable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="101"/>
        <source>{framework} finds {devices}</source>
        <translation>{framework} 找到 {devices}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="107"/>
        <source>{framework} finds no device ({why})</source>
        <translation>{framework} 未找到设备（{why}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="108"/>
        <source>none reported</source>
        <translation>未报告</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="116"/>
        <source>found as: {kind}</source>
        <translation>发现方式：{kind}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="120"/>
        <source>build: {build}</source>
        <translation>构建：{build}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="125"/>
        <source>no devices</source>
        <translation>无设备</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="128"/>
        <source>{framework} sees: {devices} ({error})</source>
        <translation>{framework} 看到：{devices}（{error}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="130"/>
        <source>{framework} sees: {devices}</source>
        <translation>{framework} 看到：{devices}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="168"/>
        <source>The Python the probe workers run in: this app&apos;s own, or one of your environments with its own torch / JAX builds</source>
        <translation>探测工作进程所用的 Python：本应用自带的，或你的某个带有自己 torch / JAX 构建的环境</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="173"/>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="174"/>
        <source>Add a Python interpreter by path (e.g. ~/venvs/train/bin/python)</source>
        <translation>按路径添加一个 Python 解释器（例如 ~/venvs/train/bin/python）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="178"/>
        <source>Ask every environment again</source>
        <translation>重新查询所有环境</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="228"/>
        <source>Looking for Python environments (venvs, conda, pyenv)…</source>
        <translation>正在查找 Python 环境（venv、conda、pyenv）…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="276"/>
        <source>this app (bundle)</source>
        <translation>本应用（打包版）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="276"/>
        <source>this app</source>
        <translation>本应用</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="294"/>
        <source>The probe environment {python} was not found; using this app&apos;s own Python.</source>
        <translation>未找到探测环境 {python}；改用本应用自带的 Python。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="305"/>
        <source>The probe environment cannot be used ({problem}); using this app&apos;s own Python.</source>
        <translation>探测环境无法使用（{problem}）；改用本应用自带的 Python。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="339"/>
        <source>Choose a Python interpreter</source>
        <translation>选择 Python 解释器</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="367"/>
        <source>Listing the Python environments failed: {problem} ({stderr})</source>
        <translation>列举 Python 环境失败：{problem}（{stderr}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="371"/>
        <source>Listing the Python environments failed: {problem}</source>
        <translation>列举 Python 环境失败：{problem}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="373"/>
        <source>The environment list could not be read; the app&apos;s own Python is used.</source>
        <translation>无法读取环境列表；使用本应用自带的 Python。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="389"/>
        <source>Could not start the environment listing.</source>
        <translation>无法启动环境列举。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/envs_view.py" line="400"/>
        <source>Listing the Python environments took longer than {seconds} s; stopped it.</source>
        <translation>列举 Python 环境超过了 {seconds} 秒；已停止。</translation>
    </message>
</context>
<context>
    <name>EstimatorCard</name>
    <message>
        <source>Estimate for each chip</source>
        <translation>每款芯片的估算</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="74"/>
        <source>How long would your run take?</source>
        <extracomment>The estimator&apos;s inputs: at most this many across, each column about this wide at the least. How long the estimator waits after the last keystroke before it estimates again.</extracomment>
        <translation>你的运行需要多长时间？</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="88"/>
        <source>Type your model&apos;s size; time, memory and cost follow for every chip in the catalogue and for each device measured in this session&apos;s probe runs. Costs use the cheapest price known for each chip (hover a price for its source and age; File &gt; Import Prices… adds a SkyPilot or gpuhunt catalogue); type your own price per chip-hour in a ✎ cell and it wins.</source>
        <translation>输入模型的规模，即可看到目录中每款芯片以及本会话探测运行中测过的每台设备的时间、内存和成本。成本按每款芯片已知的最低价格计算（悬停在价格上可查看其来源和时效；「文件 &gt; 导入价格…」可添加 SkyPilot 或 gpuhunt 目录）；在 ✎ 单元格中输入你自己的每芯片小时价格，它将优先使用。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="110"/>
        <source>e.g. 7B or 7e9</source>
        <translation>例如 7B 或 7e9</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="111"/>
        <source>Model parameters</source>
        <translation>模型参数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="113"/>
        <source>20 × parameters</source>
        <translation>20 × 参数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="114"/>
        <source>Tokens</source>
        <translation>token 数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="117"/>
        <source>Training tokens; empty: 20 per parameter (compute-optimal; modern runs train on 10-100x more). With inference: the tokens to generate.</source>
        <translation>训练 token 数；留空：每个参数 20 个（计算最优；现代训练常多用 10-100 倍）。推理时：要生成的 token 数。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="122"/>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="123"/>
        <source>Inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="124"/>
        <source>Training or inference</source>
        <translation>训练或推理</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="128"/>
        <source>Number of chips</source>
        <translation>芯片数量</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="130"/>
        <source>family default</source>
        <translation>按芯片系列默认</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="131"/>
        <source>Model FLOPs utilisation</source>
        <translation>模型 FLOPs 利用率</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="132"/>
        <source>Model FLOPs utilisation, 0 to 1. Empty: the default per chip family.</source>
        <translation>模型 FLOPs 利用率（MFU），0 到 1。留空：使用各芯片系列的默认值。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="136"/>
        <source>Batch: sequences decoded together per model copy</source>
        <translation>批大小：每个模型副本同时解码的序列数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="137"/>
        <source>Serving: sequences decoded together by one model copy.</source>
        <translation>推理服务：一个模型副本同时解码的序列数。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="141"/>
        <source>Context length in tokens</source>
        <translation>上下文长度（token）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="143"/>
        <source>Tokens per sequence: the KV-cache length when serving, the attention span when training.</source>
        <translation>每条序列的 token 数：推理服务时为 KV 缓存长度，训练时为注意力跨度。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="147"/>
        <source>Prompt tokens to prefill</source>
        <translation>要预填充的提示 token 数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="148"/>
        <source>Serving: prompt tokens to prefill in all (compute-bound).</source>
        <translation>推理服务：总共要预填充的提示 token 数（受计算限制）。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="152"/>
        <source>Weights and KV-cache type</source>
        <translation>权重与 KV 缓存的数据类型</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="153"/>
        <source>Serving: bytes per weight and KV value (bf16 2, fp8 and int8 1, fp32 4).</source>
        <translation>推理服务：每个权重和 KV 值的字节数（bf16 为 2，fp8 和 int8 为 1，fp32 为 4）。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="156"/>
        <source>Where the price is</source>
        <translation>价格所在地</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="159"/>
        <source>Cost with the cheapest price anywhere, or in one cloud or region only (the clouds and regions the price table and your catalogues know).</source>
        <translation>按任意地方的最低价格计算成本，或只看某个云或区域（价格表和你的目录中已知的云与区域）。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="165"/>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="166"/>
        <source>Model width</source>
        <translation>模型宽度</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="167"/>
        <source>Heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="168"/>
        <source>KV heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="171"/>
        <source>from the size</source>
        <translation>按规模推算</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="174"/>
        <source>{name} of the model; empty: from the parameter count at the shape ratio.</source>
        <translation>模型的{name}；留空：按参数量和形状比例推算。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="178"/>
        <source>&amp;Parameters</source>
        <translation>参数(&amp;P)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="179"/>
        <source>&amp;Tokens</source>
        <translation>token 数(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="180"/>
        <source>M&amp;ode</source>
        <translation>模式(&amp;O)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="181"/>
        <source>C&amp;hips</source>
        <translation>芯片数(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="182"/>
        <source>MF&amp;U</source>
        <translation>MFU(&amp;U)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="183"/>
        <source>&amp;Batch</source>
        <translation>批大小(&amp;B)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="184"/>
        <source>Conte&amp;xt</source>
        <translation>上下文(&amp;X)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="185"/>
        <source>P&amp;rompt tokens</source>
        <translation>提示 token 数(&amp;R)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="186"/>
        <source>&amp;Data type</source>
        <translation>数据类型(&amp;D)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="187"/>
        <source>&amp;Layers</source>
        <translation>层数(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="188"/>
        <source>&amp;Width</source>
        <translation>宽度(&amp;W)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="189"/>
        <source>H&amp;eads</source>
        <translation>注意力头数(&amp;E)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="190"/>
        <source>&amp;KV heads</source>
        <translation>KV 头数(&amp;K)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="191"/>
        <source>Pr&amp;ice in</source>
        <translation>价格范围(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="246"/>
        <source>Editable: type your own price per chip-hour in USD for any catalogue chip; it wins over the cheapest price known, which shows otherwise</source>
        <translation>可编辑：为任一目录芯片输入你自己的每芯片小时美元价格；它优先于已知的最低价格（否则显示最低价格）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="249"/>
        <source>The same run at the cheapest spot (preemptible) price known</source>
        <translation>同一次运行按已知最低的竞价（可抢占）价格计算</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="250"/>
        <source>Serving: the cost per million tokens generated (on-demand; spot in the tooltip)</source>
        <translation>推理服务：每生成一百万个 token 的成本（按需价格；竞价价格见提示）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="252"/>
        <source>What one model copy needs (training: the whole state, sharded) / what the chips it uses hold; {units}</source>
        <translation>一个模型副本需要的内存（训练：完整状态，分片后）/ 它所用芯片的内存容量；{units}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="371"/>
        <source>Inference: type the number of tokens to serve.</source>
        <translation>推理：请输入要服务的 token 数。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="378"/>
        <source>{input}: type a whole number, e.g. 32</source>
        <translation>{input}：请输入整数，例如 32</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="405"/>
        <source>{field}: {problem}</source>
        <translation>{field}：{problem}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="406"/>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="409"/>
        <source>Check the inputs: {problem}</source>
        <translation>请检查输入：{problem}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_card.py" line="436"/>
        <source>Price for {chip}: type a number of USD per chip-hour, e.g. 2.5</source>
        <translation>{chip} 的价格：请输入每芯片小时的美元数，例如 2.5</translation>
    </message>
</context>
<context>
    <name>EstimatorInputs</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="23"/>
        <source>auto (fewest chips)</source>
        <extracomment>checkpointing choices as the combo box shows them, in EstimateRequest&apos;s words</extracomment>
        <translation>自动（芯片最少）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="24"/>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="45"/>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="55"/>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="25"/>
        <source>selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="26"/>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="35"/>
        <source>all (dense)</source>
        <translation>全部（稠密）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="36"/>
        <source>Active parameters per token</source>
        <translation>每个 token 激活的参数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="38"/>
        <source>Mixture of experts: the parameters each token uses, e.g. 12.9B of Mixtral&apos;s 46.7B. FLOPs follow these; memory follows all the parameters. Empty: a dense model.</source>
        <translation>混合专家（MoE）：每个 token 用到的参数，例如 Mixtral 46.7B 中的 12.9B。FLOPs 按这些参数计算；内存按全部参数计算。留空：稠密模型。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="46"/>
        <source>Experts per layer</source>
        <translation>每层专家数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="48"/>
        <source>Mixture of experts: experts per layer. With experts per token, a decode step reads the experts the batch routes to (more at larger batch).</source>
        <translation>混合专家（MoE）：每层的专家数。配合每个 token 的专家数，一个解码步会读取批内路由到的专家（批越大读得越多）。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="56"/>
        <source>Experts per token (top-k)</source>
        <translation>每个 token 的专家数（top-k）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="58"/>
        <source>Mixture of experts: experts each token is routed to (top-k).</source>
        <translation>混合专家（MoE）：每个 token 被路由到的专家数（top-k）。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="65"/>
        <source>Width to layers ratio of the default shape</source>
        <translation>默认形状的宽度与层数之比</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="68"/>
        <source>The default shape follows the parameter count at this width / layers ratio (N = 12 x layers x width^2); empty: {ratio}, as GPT-3 and Llama 3 use. Shape fields you type win.</source>
        <translation>默认形状按参数量和这个宽度 / 层数之比推算（N = 12 x 层数 x 宽度^2）；留空：{ratio}，与 GPT-3 和 Llama 3 相同。你输入的形状字段优先。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="78"/>
        <source>Training micro-batch: sequences per step of one copy</source>
        <translation>训练微批次：一个副本每步处理的序列数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="81"/>
        <source>Training: sequences one copy processes per micro-step; sets the activations.</source>
        <translation>训练：一个副本每个微步处理的序列数；决定激活值的大小。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="89"/>
        <source>Activation checkpointing</source>
        <translation>激活检查点</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="92"/>
        <source>Training: activation recomputation (Korthikanti et al. 2022). none keeps every activation; selective recomputes the attention core; full keeps each layer&apos;s input and repeats the forward pass. auto: the least recomputation that reaches the fewest chips per copy.</source>
        <translation>训练：激活重计算（Korthikanti 等，2022）。「无」保留全部激活值；「选择性」重算注意力核心；「完全」只保留每层的输入并重做前向计算。「自动」：在每个副本用最少芯片的前提下，重计算最少的方案。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="99"/>
        <source>needs strict fp32</source>
        <translation>需要严格 fp32</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="103"/>
        <source>The workload needs strict fp32 matmuls</source>
        <translation>该工作负载需要严格的 fp32 矩阵乘法</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="106"/>
        <source>Full fp32 matrix products: GPUs at their FP32 peak (no TF32), TPUs at their bf16 peak over 3 to 6 bf16 passes (precision=HIGH to HIGHEST).</source>
        <translation>完整 fp32 矩阵乘积：GPU 按其 FP32 峰值计算（不用 TF32），TPU 按 bf16 峰值、分 3 到 6 趟 bf16 运算计算（precision=HIGH 到 HIGHEST）。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="113"/>
        <source>from a model check</source>
        <translation>来自模型检查</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="115"/>
        <source>Steps of your compiled model to run</source>
        <translation>要运行的已编译模型步数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="118"/>
        <source>With a model check that compiled your model for TPUs: the steps (training steps, or forward passes when serving) to run, for the time of the rows from your model; empty: their step time only.</source>
        <translation>若模型检查已为 TPU 编译了你的模型：要运行的步数（训练步，或推理服务时的前向计算次数），用于计算来自你模型的各行时间；留空：只显示单步时间。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="125"/>
        <source>measured 0.65-0.80</source>
        <translation>实测 0.65-0.80</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="127"/>
        <source>Share of nominal bandwidth decode reaches</source>
        <translation>解码达到的标称带宽比例</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="130"/>
        <source>Serving: the share of a chip&apos;s nominal memory bandwidth a decode step reaches, 0 to 1. Empty: the catalogue&apos;s measured range.</source>
        <translation>推理服务：一个解码步达到的芯片标称内存带宽比例，0 到 1。留空：使用目录中的实测范围。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="151"/>
        <source>&amp;Active parameters</source>
        <translation>激活参数(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="152"/>
        <source>Expert&amp;s</source>
        <translation>专家数(&amp;S)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="153"/>
        <source>Experts per toke&amp;n</source>
        <translation>每 token 专家数(&amp;N)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="154"/>
        <source>Shape ratio (width / la&amp;yers)</source>
        <translation>形状比例（宽度 / 层数）(&amp;Y)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="155"/>
        <source>&amp;Micro-batch</source>
        <translation>微批次(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="156"/>
        <source>Checkpo&amp;inting</source>
        <translation>检查点(&amp;I)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="157"/>
        <source>Precision (&amp;fp32)</source>
        <translation>精度（fp32）(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="158"/>
        <source>De&amp;code bandwidth share</source>
        <translation>解码带宽比例(&amp;C)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="159"/>
        <source>Steps (your model)</source>
        <translation>步数（你的模型）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="217"/>
        <source>{input}: {problem}</source>
        <translation>{input}：{problem}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="229"/>
        <source>{input}: type a whole number, e.g. 8</source>
        <translation>{input}：请输入整数，例如 8</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_inputs.py" line="244"/>
        <source>{input}: type a number, e.g. 0.7</source>
        <translation>{input}：请输入数字，例如 0.7</translation>
    </message>
</context>
<context>
    <name>EstimatorTable</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="48"/>
        <source>Chip</source>
        <extracomment>the columns&apos; English headers (their keys); column_headers() gives them in the language in use</extracomment>
        <translation>芯片</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="49"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="50"/>
        <source>Peak used</source>
        <translation>所用峰值</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="52"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="53"/>
        <source>Bound</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="55"/>
        <source>Chips per
copy</source>
        <translation>每副本
芯片数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="56"/>
        <source>$/chip-hour</source>
        <translation>美元/芯片小时</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="57"/>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="58"/>
        <source>Spot cost</source>
        <translation>竞价成本</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="59"/>
        <source>$/M tokens</source>
        <translation>美元/百万 token</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="62"/>
        <source>Memory
needed / available</source>
        <extracomment>the memory column&apos;s header as EST_COLUMNS words it (core&apos;s MEMORY_HEADER; a test holds them equal)</extracomment>
        <translation>内存
需要 / 可用</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="74"/>
        <source>✎ type $/h</source>
        <extracomment>What an empty price cell shows, so it reads as a field to type in.</extracomment>
        <translation>✎ 输入美元/小时</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="76"/>
        <source>Editable: type the USD price of one {chip} per hour (double-click or start typing); your price wins over the price tables; empty: the cheapest price known</source>
        <translation>可编辑：输入一块 {chip} 每小时的美元价格（双击或直接输入）；你的价格优先于价格表；留空：使用已知的最低价格</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="82"/>
        <source>Type the number of model parameters to see the estimate.</source>
        <translation>输入模型参数量即可查看估算。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="84"/>
        <source>Cheapest anywhere</source>
        <extracomment>the Price in choice that takes the cheapest price wherever it is.</extracomment>
        <translation>任意地方最低价</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="110"/>
        <source>{cloud} (any region)</source>
        <translation>{cloud}（任意区域）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="146"/>
        <source>USD per chip-hour, e.g. 2.5</source>
        <translation>每芯片小时美元数，例如 2.5</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="218"/>
        <source>A measured device has no price here: costs are for catalogue chips</source>
        <translation>实测设备在这里没有价格：成本只针对目录中的芯片</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="233"/>
        <source>what limits a decode step: compute, or reading weights and KV cache from memory</source>
        <translation>限制解码步的因素：计算，或从内存读取权重和 KV 缓存</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="238"/>
        <source>training is compute-bound</source>
        <translation>训练受计算限制</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="249"/>
        <source>One copy: {layout} (tensor parallel inside the fast-link group x pipeline stages or sharded data parallel across groups, checkpointing as shown)</source>
        <translation>一个副本：{layout}（高速互联组内张量并行 x 流水线阶段，或跨组分片数据并行；检查点如表所示）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="269"/>
        <source>{inputs}: {flops} FLOPs in all. Fastest first; times run from the high to the low MFU (memory-bound decode: from the high to the low bandwidth share).</source>
        <translation>{inputs}：总计 {flops} FLOPs。最快的排在前面；时间从高 MFU 到低 MFU 的范围（受内存限制的解码：从高到低的带宽比例）。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="275"/>
        <source>Warning: {warning}</source>
        <translation>警告：{warning}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="279"/>
        <source>Compute: {compute}.
Memory: {memory}; {units}.{model}
Cost: {cost}; {origins}.{warnings}
Sources: {sources}.</source>
        <translation>计算：{compute}。
内存：{memory}；{units}。{model}
成本：{cost}；{origins}。{warnings}
来源：{sources}。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/estimator_table.py" line="316"/>
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>ModelCheckBar</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="49"/>
        <source>Python model file (*.py);;All files (*)</source>
        <extracomment>the chip counts the bar offers (0: no TPU compile, a faster check).</extracomment>
        <translation>Python 模型文件 (*.py);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="256"/>
        <source>Check my model…</source>
        <translation>检查我的模型…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="259"/>
        <source>Pick your model&apos;s Python file; it runs in a separate process, and the answers on this page are filled from what is measured</source>
        <translation>选择你模型的 Python 文件；它在单独的进程中运行，本页的回答将按测得的结果填写</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="267"/>
        <source>Measure these answers from your own model file (PyTorch: model() and example_inputs(); JAX: params(), forward() and example_inputs()).</source>
        <translation>从你自己的模型文件测出这些回答（PyTorch：model() 和 example_inputs()；JAX：params()、forward() 和 example_inputs()）。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="276"/>
        <source>no TPU compile</source>
        <translation>不为 TPU 编译</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="278"/>
        <source>1 chip</source>
        <translation>1 块芯片</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="280"/>
        <source>{n} chips</source>
        <translation>{n} 块芯片</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="283"/>
        <source>TPU chips to compile for</source>
        <translation>要编译的 TPU 芯片数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="286"/>
        <source>With libtpu installed, the check compiles your model for each TPU generation of the catalogue, for a slice of this many chips (more than one shows how the batch is split)</source>
        <translation>装有 libtpu 时，检查会为目录中的每代 TPU 编译你的模型，切片（slice）大小为此芯片数（多于一块时可看到批如何拆分）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="290"/>
        <source>Compile for TPU:</source>
        <translation>为 TPU 编译：</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="298"/>
        <source>The Python your model is checked in: this app&apos;s own, or one of your environments, so that the packages your model imports (and their torch or JAX) are the ones you use</source>
        <translation>检查模型所用的 Python：本应用自带的，或你的某个环境，这样模型导入的包（及其 torch 或 JAX）就是你实际使用的</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="310"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="327"/>
        <source>Check a model file</source>
        <translation>检查模型文件</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="352"/>
        <source>Starting the check of {file} in {python}…</source>
        <translation>正在 {python} 中开始检查 {file}…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="354"/>
        <source>Starting the check of {file}…</source>
        <translation>正在开始检查 {file}…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="374"/>
        <source>Checked {file} (saved with this session): evidence level {level}.</source>
        <translation>已检查 {file}（随本会话保存）：证据级别 {level}。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="415"/>
        <source>Check cancelled; the answers were left as they were.</source>
        <translation>检查已取消；回答保持原样。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="418"/>
        <source>The check did not run: {problem}</source>
        <translation>检查未运行：{problem}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="422"/>
        <source>The model check did not run</source>
        <translation>模型检查未运行</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="431"/>
        <source>Checked {file} in {seconds} s: evidence level {level}. Measured values fill only the answers you left open; each stays yours to change.</source>
        <translation>已检查 {file}，用时 {seconds} 秒：证据级别 {level}。测得的值只填写你留空的回答；每个回答仍可由你修改。</translation>
    </message>
</context>
<context>
    <name>ModelCheckProcess</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="93"/>
        <source>choose the Python environment that has the package in the Python selector beside Check my model…</source>
        <translation>请在「检查我的模型…」旁边的 Python 选择器中选择装有该包的 Python 环境</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="150"/>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/model_check.py" line="210"/>
        <source>{file}: the check&apos;s worker process could not start</source>
        <translation>{file}：检查的工作进程无法启动</translation>
    </message>
</context>
<context>
    <name>ProbePanel</name>
    <message>
        <source>This chart as a table…</source>
        <translation>此图表的表格…</translation>
    </message>
    <message>
        <source>Run the probe</source>
        <translation>运行探测</translation>
    </message>
    <message>
        <source>Cancel the probe</source>
        <translation>取消探测</translation>
    </message>
    <message>
        <source>{tip} ({keys})</source>
        <translation>{tip}（{keys}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="110"/>
        <source>Ready: choose a suite and press Run.</source>
        <translation>就绪：选择套件并点击「运行」。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="148"/>
        <source>Import run…</source>
        <translation>导入运行…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="151"/>
        <source>Open a run file measured elsewhere (e.g. on a cloud GPU or a TPU VM) and overlay it</source>
        <translation>打开在别处（例如云 GPU 或 TPU 虚拟机上）测得的运行文件并叠加显示</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="155"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="158"/>
        <source>Run as JSON…</source>
        <translation>运行导出为 JSON…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="159"/>
        <source>Run as CSV…</source>
        <translation>运行导出为 CSV…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="161"/>
        <source>This chart as PNG…</source>
        <translation>当前图表导出为 PNG…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="162"/>
        <source>This chart as SVG…</source>
        <translation>当前图表导出为 SVG…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="166"/>
        <source>Side panel</source>
        <translation>侧边栏</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="170"/>
        <source>Show or hide devices, runs and messages (hidden by itself in a narrow window)</source>
        <translation>显示或隐藏设备、运行和消息（窗口较窄时自动隐藏）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="172"/>
        <source>Show the side panel</source>
        <translation>显示侧边栏</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="192"/>
        <source>Look for devices again</source>
        <translation>重新查找设备</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="194"/>
        <source>Devices on this machine</source>
        <translation>本机设备</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="198"/>
        <source>Found by a worker process for each backend.</source>
        <translation>由每个后端各自的工作进程查找。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="230"/>
        <source>Runs shown</source>
        <translation>显示的运行</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="231"/>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="271"/>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="284"/>
        <source>Cannot open this run file</source>
        <translation>无法打开此运行文件</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="276"/>
        <source>{file}: this run is already shown.</source>
        <translation>{file}：此运行已在显示中。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="285"/>
        <source>{path}: cannot be shown ({problem})</source>
        <translation>{path}：无法显示（{problem}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="291"/>
        <source>Imported {file}: {run}, {n} results ({ok} ok).</source>
        <translation>已导入 {file}：{run}，{n} 个结果（{ok} 个正常）。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="297"/>
        <source>Imported the run of {host} ({n} results)</source>
        <translation>已导入 {host} 的运行（{n} 条结果）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="332"/>
        <source>there is no run to export yet</source>
        <translation>还没有可导出的运行</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="338"/>
        <source>Saved {run} to {path}.</source>
        <translation>已将 {run} 保存到 {path}。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="339"/>
        <source>Exported the run</source>
        <translation>已导出运行</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="346"/>
        <source>unknown chart {chart} (choose from {charts})</source>
        <translation>未知图表 {chart}（可选：{charts}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="351"/>
        <source>Saved the {chart} chart to {path}.</source>
        <translation>已将 {chart} 图表保存到 {path}。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="352"/>
        <source>Exported the {chart} chart</source>
        <translation>已导出 {chart} 图表</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="402"/>
        <source>As found by the run of {when}; press the button to look again.</source>
        <extracomment>below this width the side panel hides itself, unless the user chose otherwise</extracomment>
        <translation>来自 {when} 的运行所找到的设备；点击按钮可重新查找。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="421"/>
        <source>Import a probe run</source>
        <translation>导入探测运行</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="421"/>
        <source>Probe runs (*.json);;All files (*)</source>
        <translation>探测运行 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="432"/>
        <source>JSON run file (*.json)</source>
        <translation>JSON 运行文件 (*.json)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="432"/>
        <source>CSV table (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="434"/>
        <source>Export the run</source>
        <translation>导出运行</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="440"/>
        <source>Export the chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="457"/>
        <source>Cannot save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="475"/>
        <source>Probes now run in {python}.</source>
        <translation>现在探测在 {python} 中运行。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_panel.py" line="475"/>
        <source>this app’s own Python</source>
        <translation>本应用自带的 Python</translation>
    </message>
</context>
<context>
    <name>ProbeProcess</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="169"/>
        <source>Cancelling: the results already measured are kept.</source>
        <extracomment>How often the watchdog asks the session whether the running point is past its cap. How long a closing window waits for a killed worker to be reaped.</extracomment>
        <translation>正在取消：已测得的结果会保留。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="318"/>
        <source>{where}: {message}</source>
        <translation>{where}：{message}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="325"/>
        <source>{point}: {status}: {message}</source>
        <translation>{point}：{status}：{message}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="329"/>
        <source>{point}: {status}</source>
        <translation>{point}：{status}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="334"/>
        <source>{backend}: stopped early: {message}</source>
        <translation>{backend}：提前停止：{message}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="345"/>
        <source>{point} ran past its time cap</source>
        <translation>{point} 超出了时间上限</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="347"/>
        <source>the worker did not start in time</source>
        <translation>工作进程未能及时启动</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="350"/>
        <source>{backend}: {what}; stopping that worker and going on.</source>
        <translation>{backend}：{what}；停止该工作进程并继续。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_process.py" line="364"/>
        <source>{backend}: could not start the worker: {reason}</source>
        <translation>{backend}：无法启动工作进程：{reason}</translation>
    </message>
</context>
<context>
    <name>ProbeRunner</name>
    <message>
        <source>{backend}: {point} · point {n} of {total} · {elapsed} so far{eta}{then}</source>
        <translation>{backend}：{point} · 第 {n} / {total} 个测量点 · 已用 {elapsed}{eta}{then}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="74"/>
        <source>unknown suite {suite} (choose from {suites})</source>
        <translation>未知套件 {suite}（可选：{suites}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="81"/>
        <source>Choose at least one backend (torch or jax) to run a probe.</source>
        <translation>请至少选择一个后端（torch 或 jax）来运行探测。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="97"/>
        <source>Cancelled before the probe started.</source>
        <translation>已在探测开始前取消。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="98"/>
        <source>Ready: choose a suite and press Run.</source>
        <translation>就绪：选择套件并点击「运行」。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="102"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="116"/>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="151"/>
        <source>Looking for devices (each backend in its own worker)…</source>
        <translation>正在查找设备（每个后端在各自的工作进程中）…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="159"/>
        <source>A probe is running: the collective run starts once it is done or cancelled.</source>
        <translation>有探测正在运行：集合通信运行将在其完成或取消后开始。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="166"/>
        <source>Measuring across {n} processes…</source>
        <translation>正在跨 {n} 个进程测量…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="168"/>
        <source>Collectives: starting {n} processes ({backends})…</source>
        <translation>集合通信：正在启动 {n} 个进程（{backends}）…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="173"/>
        <source>Measuring collectives: {command}</source>
        <translation>正在测量集合通信：{command}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="181"/>
        <source>Measure across {n} processes</source>
        <translation>跨 {n} 个进程测量</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="214"/>
        <source>kernels {kernels}</source>
        <translation>内核 {kernels}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="216"/>
        <source>dtypes {dtypes}</source>
        <translation>数据类型 {dtypes}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="219"/>
        <source>Started the {suite} suite on {backends} ({limits}).</source>
        <translation>已在 {backends} 上开始{suite}套件（{limits}）。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="220"/>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="223"/>
        <source>Started the {suite} suite on {backends}.</source>
        <translation>已在 {backends} 上开始{suite}套件。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="230"/>
        <source>{backend}: on the worker started ahead of time; planning the points…</source>
        <translation>{backend}：使用提前启动的工作进程；正在规划测量点…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="331"/>
        <source>Getting ready: finding devices ({left} still loading) and loading the {first} worker; measuring starts right after, so detection cannot disturb it…</source>
        <translation>准备中：正在查找设备（还有 {left} 个在加载）并加载 {first} 工作进程；随后立即开始测量，查找设备不会干扰测量…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="234"/>
        <source>Starting the {backend} worker (loading {backend}, finding its devices)…</source>
        <translation>正在启动 {backend} 工作进程（加载 {backend}，查找其设备）…</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="267"/>
        <source>, then {backends}</source>
        <translation>，然后是 {backends}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="271"/>
        <source>{backend}: {point} · point {n} of {total}{eta}{then}</source>
        <translation>{backend}：{point} · 第 {n} / {total} 个测量点{eta}{then}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="285"/>
        <source>no results</source>
        <translation>没有结果</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="288"/>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="290"/>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="292"/>
        <source>Finished with problems</source>
        <translation>已完成，但有问题</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="296"/>
        <source>{head} after {time}: {n} results ({detail}).</source>
        <translation>{head}，用时 {time}：{n} 个结果（{detail}）。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="305"/>
        <source>{head}: {n} results in {time}</source>
        <translation>{head}：{n} 个结果，用时 {time}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="317"/>
        <source>Found by a worker process for each backend.</source>
        <translation>由每个后端各自的工作进程查找。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/probe_run.py" line="321"/>
        <source>{backend}: not usable here: {reason}</source>
        <translation>{backend}：在此不可用：{reason}</translation>
    </message>
</context>
<context>
    <name>ResultsModel</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="41"/>
        <source>ok</source>
        <extracomment>a result&apos;s status and a run&apos;s suite as shown (English here; words() gives the language in use)</extracomment>
        <translation>正常</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="42"/>
        <source>suspect</source>
        <translation>可疑</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="43"/>
        <source>timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="44"/>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="45"/>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="48"/>
        <source>smoke</source>
        <translation>冒烟</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="49"/>
        <source>quick</source>
        <translation>快速</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="50"/>
        <source>full</source>
        <translation>完整</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="83"/>
        <source>median {median}
min {min}   max {max}
q1 {q1}   q3 {q3}   IQR {iqr}
CV {cv} %   {reps} repetitions in {seconds} s</source>
        <translation>中位数 {median}
最小 {min}   最大 {max}
q1 {q1}   q3 {q3}   IQR {iqr}
CV {cv} %   {reps} 次重复，用时 {seconds} 秒</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="105"/>
        <source>{suite} (functional check, not a benchmark)</source>
        <translation>{suite}（功能检查，不是基准测试）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="110"/>
        <source>{label} (partial)</source>
        <translation>{label}（不完整）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="118"/>
        <source>Run</source>
        <extracomment>the columns&apos; English names (their keys); headers are translated where shown</extracomment>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="119"/>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="120"/>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="121"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="122"/>
        <source>Dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="123"/>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="124"/>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="125"/>
        <source>CV / IQR</source>
        <translation>CV / IQR</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="126"/>
        <source>% ceiling</source>
        <translation>占上限 %</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="127"/>
        <source>% spec</source>
        <translation>占规格 %</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="128"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="162"/>
        <source>Suspect: faster than the chip&apos;s published peak, so the timing is probably wrong. Not counted as a ceiling.</source>
        <translation>可疑：比芯片公布的峰值还快，计时很可能有误。不计作上限。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="167"/>
        <source>Timed out: the point ran past its time cap and was stopped.</source>
        <translation>超时：该测量点超出了时间上限，已被停止。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="170"/>
        <source>Failed: the point raised an error or the worker stopped.</source>
        <translation>失败：该测量点出错，或工作进程已停止。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="171"/>
        <source>Skipped: not applicable on this device or left out to stay within the time budget.</source>
        <translation>已跳过：不适用于此设备，或为留在时间预算内而省略。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="177"/>
        <source>Not trusted, so never a best value, a ceiling, an estimator row or evidence:</source>
        <translation>不可信，因此从不作为最佳值、上限、估算器的行或证据：</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="261"/>
        <source>Median of the repetitions (rates in FLOP/s or B/s; times in seconds)</source>
        <translation>各次重复的中位数（速率以 FLOP/s 或 B/s 计；时间以秒计）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="263"/>
        <source>Spread: coefficient of variation and interquartile range of the repetitions, as % of the median; hover a cell for the values, min and max</source>
        <translation>离散程度：各次重复的变异系数和四分位距，以中位数的百分比表示；悬停在单元格上可查看数值、最小值和最大值</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="267"/>
        <source>Percent of the best trusted result of the same kernel, device and dtype in this run</source>
        <translation>占本次运行中同一内核、设备和数据类型最佳可信结果的百分比</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="269"/>
        <source>ok, a failure, or why a measured point is not trusted: {rule}</source>
        <translation>正常、失败，或测量点不可信的原因：{rule}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="272"/>
        <source>Percent of the published dense peak of the matched catalogue chip</source>
        <translation>占所匹配目录芯片公布的稠密峰值的百分比</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_model.py" line="300"/>
        <source>math mode: {mode}</source>
        <translation>数学模式：{mode}</translation>
    </message>
</context>
<context>
    <name>ResultsTable</name>
    <message>
        <source>Results</source>
        <translation>结果</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/results_table.py" line="18"/>
        <source>Filter results (kernel, device, dtype, status…)</source>
        <translation>筛选结果（内核、设备、数据类型、状态…）</translation>
    </message>
</context>
<context>
    <name>RooflineChart</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="46"/>
        <source>Roofline</source>
        <translation>屋顶线（roofline）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="58"/>
        <source>arithmetic intensity (FLOP per byte, log scale)</source>
        <extracomment>intensity range shown (FLOP per byte)</extracomment>
        <translation>算术强度（每字节 FLOP，对数刻度）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="59"/>
        <source>FLOP/s (log scale)</source>
        <translation>FLOP/s（对数刻度）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="62"/>
        <source>Compute ceiling for this dtype (measured matmul and catalogue peak)</source>
        <translation>此数据类型的计算上限（实测矩阵乘法与目录峰值）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="64"/>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="111"/>
        <source>Compare with chips</source>
        <translation>与芯片比较</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="65"/>
        <source>Draw the published ceilings of catalogue GPUs and TPUs (dashed)</source>
        <translation>绘制目录中 GPU 与 TPU 公布的上限（虚线）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="69"/>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="84"/>
        <source>GPUs (the workshop)</source>
        <translation>GPU（工坊）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="85"/>
        <source>TPUs (the factory line)</source>
        <translation>TPU（流水线）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="86"/>
        <source>Other accelerators (AWS Trainium and Inferentia, Intel Gaudi)</source>
        <translation>其他加速器（AWS Trainium 与 Inferentia、Intel Gaudi）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="111"/>
        <source>Compare with chips ({n})</source>
        <translation>与芯片比较（{n}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="133"/>
        <source>No {dtype} matmul or memory bandwidth measured yet. Run a probe, import a run file, or pick catalogue chips to compare.</source>
        <translation>还没有测得 {dtype} 矩阵乘法或内存带宽。运行一次探测、导入运行文件，或选择目录中的芯片来比较。</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="148"/>
        <source>measured: {label}</source>
        <translation>实测：{label}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="154"/>
        <source>hollow: not trusted, never a ceiling (hover a point for why)</source>
        <translation>空心：不可信，从不作为上限（悬停在点上查看原因）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="174"/>
        <source>measured: {label} ({figures})</source>
        <translation>实测：{label}（{figures}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="221"/>
        <source>no published {dtype} peak</source>
        <translation>无公布的 {dtype} 峰值</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="222"/>
        <source>no published bandwidth</source>
        <translation>无公布的带宽</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_roofline.py" line="224"/>
        <source>spec: {chip} ({peak}, {bw})</source>
        <translation>规格：{chip}（{peak}，{bw}）</translation>
    </message>
</context>
<context>
    <name>RunControls</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="34"/>
        <source>smoke: a few points per kernel, seconds; checks that everything works</source>
        <extracomment>each suite in a line (English; suite_help() gives it in the language in use)</extracomment>
        <translation>冒烟：每个内核几个测量点，几秒钟；检查一切是否正常工作</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="36"/>
        <source>quick: the main sweep within about {seconds} s</source>
        <translation>快速：主要扫描，约 {seconds} 秒内完成</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="37"/>
        <source>full: every kernel and size, up to about {minutes} minutes</source>
        <translation>完整：所有内核和大小，最多约 {minutes} 分钟</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="105"/>
        <source>{n} s</source>
        <extracomment>Time budgets offered besides the suite&apos;s own (seconds).</extracomment>
        <translation>{n} 秒</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="106"/>
        <source>{n} min</source>
        <translation>{n} 分钟</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="128"/>
        <source>How thorough the probe is: {suites}</source>
        <translation>探测的详尽程度：{suites}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="129"/>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="136"/>
        <source>Probe with {backend} (in its own worker process)</source>
        <translation>用 {backend} 探测（在它自己的工作进程中）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="140"/>
        <source>Time budget for the run</source>
        <translation>本次运行的时间预算</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="143"/>
        <source>How long the whole run may take; points that do not fit are left out, and each one left out says so</source>
        <translation>整次运行最多可用的时间；放不进去的测量点会被省略，每个被省略的点都会注明</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="148"/>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="149"/>
        <source>Limit the run to some kernels (default: every kernel of the suite)</source>
        <translation>只运行部分内核（默认：套件中的所有内核）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="150"/>
        <source>Dtypes</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="152"/>
        <source>Limit matmul and friends to some dtypes (default: every dtype the device supports)</source>
        <translation>只让矩阵乘法等内核使用部分数据类型（默认：设备支持的所有数据类型）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="154"/>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="155"/>
        <source>Measure this machine with the chosen suite</source>
        <translation>用所选套件测量本机</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="157"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="158"/>
        <source>Stop now and keep the results measured so far</source>
        <translation>立即停止，保留已测得的结果</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="167"/>
        <source>suite&apos;s ({time})</source>
        <translation>套件默认（{time}）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="191"/>
        <source>Suite</source>
        <translation>套件</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="193"/>
        <source>&amp;Time</source>
        <translation>时间(&amp;T)</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/run_controls.py" line="198"/>
        <source>Backends</source>
        <translation>后端</translation>
    </message>
</context>
<context>
    <name>RunsList</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/runs_list.py" line="34"/>
        <source>this machine · running</source>
        <translation>本机 · 运行中</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/runs_list.py" line="37"/>
        <source>imported · {label}</source>
        <translation>已导入 · {label}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/runs_list.py" line="57"/>
        <source>Tick to show a run in the charts; right-click to remove it from the page</source>
        <translation>勾选以在图表中显示某次运行；右键可将其从页面移除</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/runs_list.py" line="151"/>
        <source>no devices</source>
        <translation>无设备</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/runs_list.py" line="154"/>
        <source>{host} · {os}
{devices}
{n} results · suite {suite}</source>
        <translation>{host} · {os}
{devices}
{n} 个结果 · 套件 {suite}</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/runs_list.py" line="180"/>
        <source>Remove from the page</source>
        <translation>从页面移除</translation>
    </message>
</context>
<context>
    <name>ThroughputChart</name>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_throughput.py" line="31"/>
        <source>Matmul throughput</source>
        <translation>矩阵乘法吞吐量</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_throughput.py" line="38"/>
        <source>Log scale (throughput)</source>
        <translation>对数刻度（吞吐量）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_throughput.py" line="40"/>
        <source>Compare runs whose speeds differ by orders of magnitude, e.g. a laptop CPU and a TPU</source>
        <translation>对比速度相差几个数量级的运行，例如笔记本 CPU 与 TPU</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_throughput.py" line="46"/>
        <source>matrix size N (N×N, log scale)</source>
        <translation>矩阵大小 N（N×N，对数刻度）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_throughput.py" line="52"/>
        <source>FLOP/s (log scale)</source>
        <translation>FLOP/s（对数刻度）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_throughput.py" line="67"/>
        <source>matmul results</source>
        <translation>矩阵乘法结果</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_throughput.py" line="67"/>
        <source>run a probe or import a run file.</source>
        <translation>运行一次探测或导入运行文件。</translation>
    </message>
</context>
<context>
    <name>_Chart</name>
    <message>
        <source>Show as table…</source>
        <translation>以表格显示…</translation>
    </message>
    <message>
        <source>Series</source>
        <translation>系列</translation>
    </message>
    <message>
        <source>Row</source>
        <translation>行</translation>
    </message>
    <message>
        <source>Starts at</source>
        <translation>开始于</translation>
    </message>
    <message>
        <source>Takes</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>Chart data</source>
        <translation>图表数据</translation>
    </message>
    <message>
        <source>Nothing drawn yet.</source>
        <translation>尚未绘制任何内容。</translation>
    </message>
    <message>
        <source>Category</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>Chart</source>
        <translation>图表</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_plot.py" line="52"/>
        <source>(and {n} more)</source>
        <extracomment>Colour-blind-safe series colours (Okabe &amp; Ito), after the theme&apos;s accent.</extracomment>
        <translation>（还有 {n} 个）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_plot.py" line="138"/>
        <source>hollow: not trusted (hover a point for why)</source>
        <extracomment>With more series than this, the legend moves from under the plot to a side list with toggles. The legend entry that says what a hollow marker means (each series keeps its own entry).</extracomment>
        <translation>空心：不可信（悬停在点上查看原因）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_plot.py" line="183"/>
        <source>Series shown</source>
        <extracomment>The plot (title, axes and data) never gets shorter than this.</extracomment>
        <translation>显示的序列</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_plot.py" line="184"/>
        <source>Untick a series to hide it</source>
        <translation>取消勾选某个序列即可隐藏它</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_plot.py" line="339"/>
        <source>{series} (not trusted)</source>
        <translation>{series}（不可信）</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_plot.py" line="406"/>
        <source>{path}: could not encode the PNG image</source>
        <translation>{path}：无法编码 PNG 图像</translation>
    </message>
    <message>
        <location filename="../../gpu_tpu_app/ui/chart_plot.py" line="435"/>
        <source>gpu-tpu-app probe chart</source>
        <translation>gpu-tpu-app 探测图表</translation>
    </message>
</context>
<context>
    <name>SummaryCard</name>
    <message>
        <source>From a run that did not finish: a complete run replaces these figures.</source>
        <translation>来自一次未完成的运行：完整运行的结果将取代这些数值。</translation>
    </message>
</context>
</TS>
