<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>CheckMenuButton</name>
    <message>
        <source>All (clear the choice)</source>
        <translation>全部（清除选择）</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>{title}: {chosen}</source>
        <translation>{title}：{chosen}</translation>
    </message>
</context>
<context>
    <name>CollectiveRun</name>
    <message>
        <source>the collective run could not start</source>
        <extracomment>Ranks started: the smallest group that has something to exchange. Measuring time per engine, and how long to wait for the ranks to join (seconds).</extracomment>
        <translation>集合通信运行无法启动</translation>
    </message>
    <message>
        <source>Cancelled the collective run; nothing was added.</source>
        <translation>已取消集合通信运行；未添加任何内容。</translation>
    </message>
    <message>
        <source>The collective run wrote a file this app cannot read: {problem}</source>
        <translation>集合通信运行写出的文件本应用无法读取：{problem}</translation>
    </message>
    <message>
        <source>Measured collectives across {n} processes: {ok} points.</source>
        <translation>已跨 {n} 个进程测量集合通信：{ok} 个测量点。</translation>
    </message>
    <message>
        <source>exit status {code}</source>
        <translation>退出状态 {code}</translation>
    </message>
    <message>
        <source>The collective run did not finish: {why}</source>
        <translation>集合通信运行未完成：{why}</translation>
    </message>
</context>
<context>
    <name>CompileCard</name>
    <message>
        <source>Compiled for TPU generations</source>
        <extracomment>TableRow fields in TABLE_HEADERS order.</extracomment>
        <translation>为各代 TPU 编译</translation>
    </message>
    <message>
        <source>{file}: not compiled for TPU generations. {detail}</source>
        <translation>{file}：未为各代 TPU 编译。{detail}</translation>
    </message>
    <message>
        <source>{file}, compiled on this computer by the TPU compiler (libtpu {libtpu}) for 1 chip of each generation, without a TPU. Per chip: memory from memory_analysis(), work from cost_analysis(); the roofline step is the slower of FLOPs at the bf16 peak and bytes at the memory bandwidth (catalogue figures). Hover a row for the compiler&apos;s reason or the working.</source>
        <translation>{file} 已在本机由 TPU 编译器（libtpu {libtpu}）为每代 1 块芯片编译，无需 TPU。每块芯片：内存来自 memory_analysis()，计算量来自 cost_analysis()；屋顶线步时取「FLOPs 按 bf16 峰值」与「字节按内存带宽」两者中较慢者（目录数据）。悬停在某行上可查看编译器给出的原因或计算过程。</translation>
    </message>
    <message>
        <source>{file}, compiled on this computer by the TPU compiler (libtpu {libtpu}) for {n} chips of each generation, without a TPU. Per chip: memory from memory_analysis(), work from cost_analysis(); the roofline step is the slower of FLOPs at the bf16 peak and bytes at the memory bandwidth (catalogue figures). Hover a row for the compiler&apos;s reason or the working.</source>
        <translation>{file} 已在本机由 TPU 编译器（libtpu {libtpu}）为每代 {n} 块芯片编译，无需 TPU。每块芯片：内存来自 memory_analysis()，计算量来自 cost_analysis()；屋顶线步时取「FLOPs 按 bf16 峰值」与「字节按内存带宽」两者中较慢者（目录数据）。悬停在某行上可查看编译器给出的原因或计算过程。</translation>
    </message>
    <message>
        <source>Layout: {layout}.</source>
        <translation>布局：{layout}。</translation>
    </message>
</context>
<context>
    <name>DeviceLister</name>
    <message>
        <source>could not start</source>
        <translation>无法启动</translation>
    </message>
    <message>
        <source>could not start the worker: {reason}</source>
        <translation>无法启动工作进程：{reason}</translation>
    </message>
    <message>
        <source>device listing worker stopped (status {code}): {tail}</source>
        <translation>设备列举工作进程已停止（状态 {code}）：{tail}</translation>
    </message>
    <message>
        <source>device listing worker stopped (status {code})</source>
        <translation>设备列举工作进程已停止（状态 {code}）</translation>
    </message>
    <message>
        <source>the worker reported no device</source>
        <translation>工作进程未报告任何设备</translation>
    </message>
    <message>
        <source>no answer within {seconds} s</source>
        <translation>{seconds} 秒内没有响应</translation>
    </message>
</context>
<context>
    <name>DevicesView</name>
    <message>
        <source>key: {key}   ({n} of this kind)</source>
        <translation>键：{key}   （此类共 {n} 个）</translation>
    </message>
    <message>
        <source>memory: {memory} ({note})</source>
        <translation>内存：{memory}（{note}）</translation>
    </message>
    <message>
        <source>memory: {memory}</source>
        <translation>内存：{memory}</translation>
    </message>
    <message>
        <source>last-level cache: {mib} MiB</source>
        <translation>末级缓存：{mib} MiB</translation>
    </message>
    <message>
        <source>warm-up before the first point: {seconds} s</source>
        <translation>首个测量点前的预热：{seconds} 秒</translation>
    </message>
    <message>
        <source>versions: {versions}</source>
        <translation>版本：{versions}</translation>
    </message>
    <message>
        <source>CPU: {model}; {cores} cores, {threads} threads used</source>
        <translation>CPU：{model}；{cores} 核，使用 {threads} 个线程</translation>
    </message>
    <message>
        <source>caches: {caches}</source>
        <translation>缓存：{caches}</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Catalogue match</source>
        <translation>目录匹配</translation>
    </message>
    <message>
        <source>Memory</source>
        <translation>内存</translation>
    </message>
    <message>
        <source>looking for devices…</source>
        <translation>正在查找设备…</translation>
    </message>
    <message>
        <source>{backend}: {note}</source>
        <translation>{backend}：{note}</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>{backend}: not usable</source>
        <translation>{backend}：不可用</translation>
    </message>
    <message>
        <source>no reason given</source>
        <translation>未给出原因</translation>
    </message>
    <message>
        <source>{backend}: 1 device</source>
        <translation>{backend}：1 台设备</translation>
    </message>
    <message>
        <source>{backend}: {n} devices</source>
        <translation>{backend}：{n} 台设备</translation>
    </message>
    <message>
        <source>no catalogue entry</source>
        <translation>无目录条目</translation>
    </message>
    <message>
        <source>No catalogue chip matches this device name, so % of spec is not shown.</source>
        <translation>目录中没有与此设备名称匹配的芯片，因此不显示「占规格 %」。</translation>
    </message>
    <message>
        <source>Catalogue entry {id}: % of spec uses its published peaks.</source>
        <translation>目录条目 {id}：「占规格 %」使用其公布的峰值。</translation>
    </message>
</context>
<context>
    <name>EnvsView</name>
    <message>
        <source>, </source>
        <extracomment>The whole listing may take this long (queries run four at a time, each with its own limit). Output beyond this is not read.</extracomment>
        <translation>、</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>{name} (Python {python}): not usable</source>
        <translation>{name}（Python {python}）：不可用</translation>
    </message>
    <message>
        <source>{name} (Python {python}; {frameworks})</source>
        <translation>{name}（Python {python}；{frameworks}）</translation>
    </message>
    <message>
        <source>no frameworks</source>
        <translation>无框架</translation>
    </message>
    <message>
        <source>the CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>the Apple GPU (MPS)</source>
        <translation>Apple GPU（MPS）</translation>
    </message>
    <message>
        <source>PyTorch CPU-only build</source>
        <translation>PyTorch 仅 CPU 版本</translation>
    </message>
    <message>
        <source>JAX for the CPU</source>
        <translation>CPU 版 JAX</translation>
    </message>
    <message>
        <source>PyTorch {build} build</source>
        <translation>PyTorch {build} 版本</translation>
    </message>
    <message>
        <source>JAX {build} build {plugin}</source>
        <translation>JAX {build} 版本 {plugin}</translation>
    </message>
    <message>
        <source>not usable</source>
        <translation>不可用</translation>
    </message>
    <message>
        <source>{framework} finds {devices}</source>
        <translation>{framework} 找到 {devices}</translation>
    </message>
    <message>
        <source>{framework} finds no device ({why})</source>
        <translation>{framework} 未找到设备（{why}）</translation>
    </message>
    <message>
        <source>none reported</source>
        <translation>未报告</translation>
    </message>
    <message>
        <source>found as: {kind}</source>
        <translation>发现方式：{kind}</translation>
    </message>
    <message>
        <source>build: {build}</source>
        <translation>构建：{build}</translation>
    </message>
    <message>
        <source>no devices</source>
        <translation>无设备</translation>
    </message>
    <message>
        <source>{framework} sees: {devices} ({error})</source>
        <translation>{framework} 看到：{devices}（{error}）</translation>
    </message>
    <message>
        <source>{framework} sees: {devices}</source>
        <translation>{framework} 看到：{devices}</translation>
    </message>
    <message>
        <source>The Python the probe workers run in: this app&apos;s own, or one of your environments with its own torch / JAX builds</source>
        <translation>探测工作进程所用的 Python：本应用自带的，或你的某个带有自己 torch / JAX 构建的环境</translation>
    </message>
    <message>
        <source>Add…</source>
        <translation>添加…</translation>
    </message>
    <message>
        <source>Add a Python interpreter by path (e.g. ~/venvs/train/bin/python)</source>
        <translation>按路径添加一个 Python 解释器（例如 ~/venvs/train/bin/python）</translation>
    </message>
    <message>
        <source>Ask every environment again</source>
        <translation>重新查询所有环境</translation>
    </message>
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
        <source>about {left} s left</source>
        <translation>预计还需约 {left} 秒</translation>
    </message>
    <message>
        <source>{limit} s at most</source>
        <translation>最多 {limit} 秒</translation>
    </message>
    <message>
        <source>Step {k} of {n}: asking {python} which torch and JAX it has; {elapsed} s so far, {estimate}.</source>
        <translation>第 {k} 步，共 {n} 步：正在询问 {python} 装有哪些 torch 和 JAX；已用 {elapsed} 秒，{estimate}。</translation>
    </message>
    <message>
        <source>Stopped looking for environments; the list shown is the last one.</source>
        <translation>已停止查找环境；显示的是上一次的列表。</translation>
    </message>
    <message>
        <source>this app (bundle)</source>
        <translation>本应用（打包版）</translation>
    </message>
    <message>
        <source>this app</source>
        <translation>本应用</translation>
    </message>
    <message>
        <source>The probe environment {python} was not found; using this app&apos;s own Python.</source>
        <translation>未找到探测环境 {python}；改用本应用自带的 Python。</translation>
    </message>
    <message>
        <source>The probe environment cannot be used ({problem}); using this app&apos;s own Python.</source>
        <translation>探测环境无法使用（{problem}）；改用本应用自带的 Python。</translation>
    </message>
    <message>
        <source>Choose a Python interpreter</source>
        <translation>选择 Python 解释器</translation>
    </message>
    <message>
        <source>Listing the Python environments failed: {problem} ({stderr})</source>
        <translation>列举 Python 环境失败：{problem}（{stderr}）</translation>
    </message>
    <message>
        <source>Listing the Python environments failed: {problem}</source>
        <translation>列举 Python 环境失败：{problem}</translation>
    </message>
    <message>
        <source>The environment list could not be read; the app&apos;s own Python is used.</source>
        <translation>无法读取环境列表；使用本应用自带的 Python。</translation>
    </message>
    <message>
        <source>Could not start the environment listing.</source>
        <translation>无法启动环境列举。</translation>
    </message>
    <message>
        <source>Listing the Python environments took longer than {seconds} s; stopped it.</source>
        <translation>列举 Python 环境超过了 {seconds} 秒；已停止。</translation>
    </message>
</context>
<context>
    <name>EstimatorCard</name>
    <message>
        <source>How long would your run take?</source>
        <extracomment>The estimator&apos;s inputs: at most this many across, each column about this wide at the least. How long the estimator waits after the last keystroke before it estimates again.</extracomment>
        <translation>你的运行需要多长时间？</translation>
    </message>
    <message>
        <source>Type your model&apos;s size; time, memory and cost follow for every chip in the catalogue and for each device measured in this session&apos;s probe runs. Costs use the cheapest price known for each chip (hover a price for its source and age; File &gt; Import Prices… adds a SkyPilot or gpuhunt catalogue); type your own price per chip-hour in a ✎ cell and it wins.</source>
        <extracomment>the cloud the wizard&apos;s deployment answer names (&quot;gcp&quot;; None: any), which the price filter follows until the user picks where the price is here (place_touched)</extracomment>
        <translation>输入模型的规模，即可看到目录中每款芯片以及本会话探测运行中测过的每台设备的时间、内存和成本。成本按每款芯片已知的最低价格计算（悬停在价格上可查看其来源和时效；「文件 &gt; 导入价格…」可添加 SkyPilot 或 gpuhunt 目录）；在 ✎ 单元格中输入你自己的每芯片小时价格，它将优先使用。</translation>
    </message>
    <message>
        <source>Advanced inputs</source>
        <translation>高级输入</translation>
    </message>
    <message>
        <source>Show the model&apos;s shape, mixture of experts, memory and precision inputs; empty ones keep defaults</source>
        <translation>显示模型形状、混合专家、内存和精度的输入；留空的保持默认值</translation>
    </message>
    <message>
        <source>e.g. 7B or 7e9</source>
        <translation>例如 7B 或 7e9</translation>
    </message>
    <message>
        <source>Model parameters</source>
        <translation>模型参数</translation>
    </message>
    <message>
        <source>20 × parameters</source>
        <translation>20 × 参数</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>token 数</translation>
    </message>
    <message>
        <source>Training tokens; empty: 20 per parameter (compute-optimal; modern runs train on 10-100x more). With inference: the tokens to generate.</source>
        <translation>训练 token 数；留空：每个参数 20 个（计算最优；现代训练常多用 10-100 倍）。推理时：要生成的 token 数。</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>Inference</source>
        <translation>推理</translation>
    </message>
    <message>
        <source>Training or inference</source>
        <translation>训练或推理</translation>
    </message>
    <message>
        <source>Number of chips</source>
        <translation>芯片数量</translation>
    </message>
    <message>
        <source>family default</source>
        <translation>按芯片系列默认</translation>
    </message>
    <message>
        <source>Model FLOPs utilisation</source>
        <translation>模型 FLOPs 利用率</translation>
    </message>
    <message>
        <source>Model FLOPs utilisation, 0 to 1. Empty: the default per chip family.</source>
        <translation>模型 FLOPs 利用率（MFU），0 到 1。留空：使用各芯片系列的默认值。</translation>
    </message>
    <message>
        <source>Batch: sequences decoded together per model copy</source>
        <translation>批大小：每个模型副本同时解码的序列数</translation>
    </message>
    <message>
        <source>Serving: sequences decoded together by one model copy.</source>
        <translation>推理服务：一个模型副本同时解码的序列数。</translation>
    </message>
    <message>
        <source>Context length in tokens</source>
        <translation>上下文长度（token）</translation>
    </message>
    <message>
        <source>Tokens per sequence: the KV-cache length when serving, the attention span when training.</source>
        <translation>每条序列的 token 数：推理服务时为 KV 缓存长度，训练时为注意力跨度。</translation>
    </message>
    <message>
        <source>Prompt tokens to prefill</source>
        <translation>要预填充的提示 token 数</translation>
    </message>
    <message>
        <source>Serving: prompt tokens to prefill in all (compute-bound).</source>
        <translation>推理服务：总共要预填充的提示 token 数（受计算限制）。</translation>
    </message>
    <message>
        <source>Weights and KV-cache type</source>
        <translation>权重与 KV 缓存的数据类型</translation>
    </message>
    <message>
        <source>Where the price is</source>
        <translation>价格所在地</translation>
    </message>
    <message>
        <source>Cost with the cheapest price anywhere, or in one cloud or region only (the clouds and regions the price table and your catalogues know).</source>
        <translation>按任意地方的最低价格计算成本，或只看某个云或区域（价格表和你的目录中已知的云与区域）。</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Model width</source>
        <translation>模型宽度</translation>
    </message>
    <message>
        <source>Heads</source>
        <translation>注意力头数</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV 头数</translation>
    </message>
    <message>
        <source>from the size</source>
        <translation>按规模推算</translation>
    </message>
    <message>
        <source>{name} of the model; empty: from the parameter count at the shape ratio.</source>
        <translation>模型的{name}；留空：按参数量和形状比例推算。</translation>
    </message>
    <message>
        <source>&amp;Parameters</source>
        <translation>参数(&amp;P)</translation>
    </message>
    <message>
        <source>&amp;Tokens</source>
        <translation>token 数(&amp;T)</translation>
    </message>
    <message>
        <source>M&amp;ode</source>
        <translation>模式(&amp;O)</translation>
    </message>
    <message>
        <source>C&amp;hips</source>
        <translation>芯片数(&amp;H)</translation>
    </message>
    <message>
        <source>MF&amp;U</source>
        <translation>MFU(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Batch</source>
        <translation>批大小(&amp;B)</translation>
    </message>
    <message>
        <source>Conte&amp;xt</source>
        <translation>上下文(&amp;X)</translation>
    </message>
    <message>
        <source>P&amp;rompt tokens</source>
        <translation>提示 token 数(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Data type</source>
        <translation>数据类型(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Layers</source>
        <translation>层数(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Width</source>
        <translation>宽度(&amp;W)</translation>
    </message>
    <message>
        <source>H&amp;eads</source>
        <translation>注意力头数(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;KV heads</source>
        <translation>KV 头数(&amp;K)</translation>
    </message>
    <message>
        <source>Pr&amp;ice in</source>
        <translation>价格范围(&amp;I)</translation>
    </message>
    <message>
        <source>Estimate for each chip</source>
        <translation>每款芯片的估算</translation>
    </message>
    <message>
        <source>Editable: type your own price per chip-hour in USD for any catalogue chip; it wins over the cheapest price known, which shows otherwise</source>
        <translation>可编辑：为任一目录芯片输入你自己的每芯片小时美元价格；它优先于已知的最低价格（否则显示最低价格）</translation>
    </message>
    <message>
        <source>The same run at the cheapest spot (preemptible) price known</source>
        <translation>同一次运行按已知最低的竞价（可抢占）价格计算</translation>
    </message>
    <message>
        <source>Serving: the cost per million tokens generated (on-demand; spot in the tooltip)</source>
        <translation>推理服务：每生成一百万个 token 的成本（按需价格；竞价价格见提示）</translation>
    </message>
    <message>
        <source>What one model copy needs (training: the whole state, sharded) / what the chips it uses hold; {units}</source>
        <translation>一个模型副本需要的内存（训练：完整状态，分片后）/ 它所用芯片的内存容量；{units}</translation>
    </message>
    <message>
        <source>Inference: type the number of tokens to serve.</source>
        <translation>推理：请输入要服务的 token 数。</translation>
    </message>
    <message>
        <source>Fine-tune: type the tokens to train on (your data times the epochs); it has no default.</source>
        <translation>微调：请输入要训练的 token 数（数据乘以轮数）；微调没有默认值。</translation>
    </message>
    <message>
        <source>{input}: type a whole number, e.g. 32</source>
        <translation>{input}：请输入整数，例如 32</translation>
    </message>
    <message>
        <source>{field}: {problem}</source>
        <translation>{field}：{problem}</translation>
    </message>
    <message>
        <source>Check the inputs: {problem}</source>
        <translation>请检查输入：{problem}</translation>
    </message>
    <message>
        <source>Serving: bytes per weight and KV value (bf16 2, fp8 and int8 1, fp32 4). fp8 also uses each chip&apos;s FP8 peak where it is faster, for training too.</source>
        <translation>推理服务：每个权重和 KV 值的字节数（bf16 为 2，fp8 和 int8 为 1，fp32 为 4）。fp8 还会在芯片的 FP8 峰值更快时使用它，训练也一样。</translation>
    </message>
    <message>
        <source>Price for {chip}: type a number of USD per chip-hour, e.g. 2.5</source>
        <translation>{chip} 的价格：请输入每芯片小时的美元数，例如 2.5</translation>
    </message>
</context>
<context>
    <name>EstimatorInputs</name>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <source>full</source>
        <translation>完全</translation>
    </message>
    <message>
        <source>all (dense)</source>
        <extracomment>LoRA / QLoRA adapter rank when none is chosen (EstimateRequest&apos;s default)</extracomment>
        <translation>全部（稠密）</translation>
    </message>
    <message>
        <source>Active parameters per token</source>
        <translation>每个 token 激活的参数</translation>
    </message>
    <message>
        <source>Mixture of experts: the parameters each token uses, e.g. 12.9B of Mixtral&apos;s 46.7B. FLOPs follow these; memory follows all the parameters. Empty: a dense model.</source>
        <translation>混合专家（MoE）：每个 token 用到的参数，例如 Mixtral 46.7B 中的 12.9B。FLOPs 按这些参数计算；内存按全部参数计算。留空：稠密模型。</translation>
    </message>
    <message>
        <source>Experts per layer</source>
        <translation>每层专家数</translation>
    </message>
    <message>
        <source>Mixture of experts: experts per layer. With experts per token, a decode step reads the experts the batch routes to (more at larger batch).</source>
        <translation>混合专家（MoE）：每层的专家数。配合每个 token 的专家数，一个解码步会读取批内路由到的专家（批越大读得越多）。</translation>
    </message>
    <message>
        <source>Experts per token (top-k)</source>
        <translation>每个 token 的专家数（top-k）</translation>
    </message>
    <message>
        <source>Mixture of experts: experts each token is routed to (top-k).</source>
        <translation>混合专家（MoE）：每个 token 被路由到的专家数（top-k）。</translation>
    </message>
    <message>
        <source>Width to layers ratio of the default shape</source>
        <translation>默认形状的宽度与层数之比</translation>
    </message>
    <message>
        <source>The default shape follows the parameter count at this width / layers ratio (N = 12 x layers x width^2); empty: {ratio}, as GPT-3 and Llama 3 use. Shape fields you type win.</source>
        <translation>默认形状按参数量和这个宽度 / 层数之比推算（N = 12 x 层数 x 宽度^2）；留空：{ratio}，与 GPT-3 和 Llama 3 相同。你输入的形状字段优先。</translation>
    </message>
    <message>
        <source>Training micro-batch: sequences per step of one copy</source>
        <translation>训练微批次：一个副本每步处理的序列数</translation>
    </message>
    <message>
        <source>Training: sequences one copy processes per micro-step; sets the activations.</source>
        <translation>训练：一个副本每个微步处理的序列数；决定激活值的大小。</translation>
    </message>
    <message>
        <source>Activation checkpointing</source>
        <translation>激活检查点</translation>
    </message>
    <message>
        <source>auto (fastest that fits)</source>
        <extracomment>checkpointing choices as the combo box shows them, in EstimateRequest&apos;s words</extracomment>
        <translation>自动（放得下的最快方式）</translation>
    </message>
    <message>
        <source>pre-training</source>
        <extracomment>what a training run trains, as the combo box shows it, in EstimateRequest&apos;s words (&quot;&quot;: pre-training)</extracomment>
        <translation>预训练</translation>
    </message>
    <message>
        <source>full fine-tune</source>
        <translation>全量微调</translation>
    </message>
    <message>
        <source>LoRA</source>
        <translation>LoRA</translation>
    </message>
    <message>
        <source>QLoRA (4-bit weights)</source>
        <translation>QLoRA（4 位权重）</translation>
    </message>
    <message>
        <source>Training: activation recomputation (Korthikanti et al. 2022). none keeps every activation; selective recomputes the attention core; full keeps each layer&apos;s input and repeats the forward pass. auto: the layout search takes the fastest that fits each chip.</source>
        <translation>训练：激活值重计算（Korthikanti 等，2022）。none 保留所有激活值；selective 重计算注意力核心；full 只保留每层的输入并重复前向计算。auto：布局搜索选出每块芯片都放得下的最快方式。</translation>
    </message>
    <message>
        <source>Training or fine-tune</source>
        <translation>训练或微调</translation>
    </message>
    <message>
        <source>Training: pre-training, or a fine-tune of every weight (16 B each), or LoRA / QLoRA adapters on frozen weights (bf16, or 4-bit for QLoRA: no weight gradients, about 4 x N x D FLOPs). A fine-tune needs its tokens: your data times the epochs.</source>
        <translation>训练：预训练，或微调全部权重（每个 16 B），或在冻结的权重（bf16，QLoRA 为 4 位）上训练 LoRA / QLoRA 适配器（没有权重梯度，约 4 × N × D FLOPs）。微调需要给出 token 数：数据乘以轮数。</translation>
    </message>
    <message>
        <source>LoRA adapter rank</source>
        <translation>LoRA 适配器的秩</translation>
    </message>
    <message>
        <source>LoRA / QLoRA: the adapters&apos; rank r; 18 x r x width trained parameters a layer.</source>
        <translation>LoRA / QLoRA：适配器的秩 r；每层训练 18 × r × 宽度 个参数。</translation>
    </message>
    <message>
        <source>needs strict fp32</source>
        <translation>需要严格 fp32</translation>
    </message>
    <message>
        <source>The workload needs strict fp32 matmuls</source>
        <translation>该工作负载需要严格的 fp32 矩阵乘法</translation>
    </message>
    <message>
        <source>Full fp32 matrix products: GPUs at their FP32 peak (no TF32), TPUs at their bf16 peak over 3 to 6 bf16 passes (precision=HIGH to HIGHEST).</source>
        <translation>完整 fp32 矩阵乘积：GPU 按其 FP32 峰值计算（不用 TF32），TPU 按 bf16 峰值、分 3 到 6 趟 bf16 运算计算（precision=HIGH 到 HIGHEST）。</translation>
    </message>
    <message>
        <source>from a model check</source>
        <translation>来自模型检查</translation>
    </message>
    <message>
        <source>Steps of your compiled model to run</source>
        <translation>要运行的已编译模型步数</translation>
    </message>
    <message>
        <source>With a model check that compiled your model for TPUs: the steps (training steps, or forward passes when serving) to run, for the time of the rows from your model; empty: their step time only.</source>
        <translation>若模型检查已为 TPU 编译了你的模型：要运行的步数（训练步，或推理服务时的前向计算次数），用于计算来自你模型的各行时间；留空：只显示单步时间。</translation>
    </message>
    <message>
        <source>measured 0.65-0.80</source>
        <translation>实测 0.65-0.80</translation>
    </message>
    <message>
        <source>Share of nominal bandwidth decode reaches</source>
        <translation>解码达到的标称带宽比例</translation>
    </message>
    <message>
        <source>Serving: the share of a chip&apos;s nominal memory bandwidth a decode step reaches, 0 to 1. Empty: the catalogue&apos;s measured range.</source>
        <translation>推理服务：一个解码步达到的芯片标称内存带宽比例，0 到 1。留空：使用目录中的实测范围。</translation>
    </message>
    <message>
        <source>&amp;Active parameters</source>
        <translation>激活参数(&amp;A)</translation>
    </message>
    <message>
        <source>Expert&amp;s</source>
        <translation>专家数(&amp;S)</translation>
    </message>
    <message>
        <source>Experts per toke&amp;n</source>
        <translation>每 token 专家数(&amp;N)</translation>
    </message>
    <message>
        <source>Shape ratio (width / la&amp;yers)</source>
        <translation>形状比例（宽度 / 层数）(&amp;Y)</translation>
    </message>
    <message>
        <source>Fine-tune</source>
        <translation>微调</translation>
    </message>
    <message>
        <source>LoRA rank</source>
        <translation>LoRA 秩</translation>
    </message>
    <message>
        <source>&amp;Micro-batch</source>
        <translation>微批次(&amp;M)</translation>
    </message>
    <message>
        <source>Checkpo&amp;inting</source>
        <translation>检查点(&amp;I)</translation>
    </message>
    <message>
        <source>Precision (&amp;fp32)</source>
        <translation>精度（fp32）(&amp;F)</translation>
    </message>
    <message>
        <source>De&amp;code bandwidth share</source>
        <translation>解码带宽比例(&amp;C)</translation>
    </message>
    <message>
        <source>Steps (your model)</source>
        <translation>步数（你的模型）</translation>
    </message>
    <message>
        <source>{input}: {problem}</source>
        <translation>{input}：{problem}</translation>
    </message>
    <message>
        <source>{input}: type a whole number, e.g. 8</source>
        <translation>{input}：请输入整数，例如 8</translation>
    </message>
    <message>
        <source>{input}: type a number, e.g. 0.7</source>
        <translation>{input}：请输入数字，例如 0.7</translation>
    </message>
    <message>
        <source>no target</source>
        <translation>无目标</translation>
    </message>
    <message>
        <source>Time to the first token target, ms</source>
        <translation>首个 token 的时间目标（毫秒）</translation>
    </message>
    <message>
        <source>Serving: the first token of a request within this many milliseconds (its prompt prefilled alone, compute-bound). With a target the table shows the largest batch that meets it on each chip.</source>
        <translation>推理服务：一个请求的首个 token 在这么多毫秒内给出（只预填充它的提示，受算力限制）。设了目标，表格会给出每种芯片上满足它的最大批大小。</translation>
    </message>
    <message>
        <source>Time per output token target, ms</source>
        <translation>每个输出 token 的时间目标（毫秒）</translation>
    </message>
    <message>
        <source>Serving: each further token within this many milliseconds: the largest batch whose decode step (max of compute and bytes / bandwidth) stays within it and whose KV cache fits.</source>
        <translation>推理服务：之后每个 token 在这么多毫秒内给出：取解码步（算力时间与字节数 / 带宽两者的较大者）不超过它、且 KV 缓存放得下的最大批大小。</translation>
    </message>
    <message>
        <source>Requests per second to serve</source>
        <translation>要服务的每秒请求数</translation>
    </message>
    <message>
        <source>Serving: requests a second to serve; with the output length, the table says how many chips that rate needs on each kind.</source>
        <translation>推理服务：每秒要服务的请求数；配合输出长度，表格会给出每种芯片达到这个请求率需要多少块。</translation>
    </message>
    <message>
        <source>Output tokens per request</source>
        <translation>每个请求的输出 token 数</translation>
    </message>
    <message>
        <source>Serving: tokens each request generates (the rest of the context is its prompt); needed with a request rate.</source>
        <translation>推理服务：每个请求生成的 token 数（上下文的其余部分是它的提示）；设了请求率就需要它。</translation>
    </message>
    <message>
        <source>Goodput: share of time making progress</source>
        <translation>有效时间比例：取得进展的时间占比</translation>
    </message>
    <message>
        <source>The share of time that makes progress, 0 to 1 (restarts, preemptions, stalls); times and on-demand costs are divided by it. Empty: 1.</source>
        <translation>取得进展的时间占比，0 到 1（重启、抢占、停顿会降低它）；时间和按需成本都除以它。留空：1。</translation>
    </message>
    <message>
        <source>Spot goodput: further share on spot capacity</source>
        <translation>抢占式有效时间比例：抢占式容量上的额外占比</translation>
    </message>
    <message>
        <source>Spot costs are divided by this too, 0 to 1. Empty: 1 - 25/360 = 0.93, the app&apos;s assumption of a preemption every 6 hours losing half of a 30-minute checkpoint interval plus 10 minutes to restart.</source>
        <translation>抢占式（spot）成本还要再除以它，0 到 1。留空：1 - 25/360 = 0.93，即本应用的假设：每 6 小时被抢占一次，每次损失半个 30 分钟检查点间隔再加 10 分钟重启。</translation>
    </message>
    <message>
        <source>First token within (ms)</source>
        <translation>首个 token 时限（毫秒）</translation>
    </message>
    <message>
        <source>Per output token within (ms)</source>
        <translation>每个输出 token 时限（毫秒）</translation>
    </message>
    <message>
        <source>Requests per second</source>
        <translation>每秒请求数</translation>
    </message>
    <message>
        <source>Goodput</source>
        <translation>有效时间比例</translation>
    </message>
    <message>
        <source>Spot goodput</source>
        <translation>抢占式有效时间比例</translation>
    </message>
</context>
<context>
    <name>EstimatorTable</name>
    <message>
        <source>Chip</source>
        <extracomment>the columns&apos; English headers (their keys); column_headers() gives them in the language in use</extracomment>
        <translation>芯片</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Peak used</source>
        <translation>所用峰值</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Bound</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <source>Chips per
copy</source>
        <translation>每副本
芯片数</translation>
    </message>
    <message>
        <source>$/chip-hour</source>
        <translation>美元/芯片小时</translation>
    </message>
    <message>
        <source>Cost</source>
        <translation>成本</translation>
    </message>
    <message>
        <source>Spot cost</source>
        <translation>竞价成本</translation>
    </message>
    <message>
        <source>$/M tokens</source>
        <translation>美元/百万 token</translation>
    </message>
    <message>
        <source>Memory
needed / available</source>
        <extracomment>the memory column&apos;s header as EST_COLUMNS words it (core&apos;s MEMORY_HEADER; a test holds them equal)</extracomment>
        <translation>内存
需要 / 可用</translation>
    </message>
    <message>
        <source>✎ type $/h</source>
        <extracomment>serving&apos;s latency columns after EST_COLUMNS, as core&apos;s text ids ([latency]); shown only when the estimate has latency targets: the largest batch meeting them, the first token, the time per output token, tokens/s a chip, $/M tokens at that batch, and the chips the request rate needs What an empty price cell shows, so it reads as a field to type in.</extracomment>
        <translation>✎ 输入美元/小时</translation>
    </message>
    <message>
        <source>Editable: type the USD price of one {chip} per hour (double-click or start typing); your price wins over the price tables; empty: the cheapest price known</source>
        <translation>可编辑：输入一块 {chip} 每小时的美元价格（双击或直接输入）；你的价格优先于价格表；留空：使用已知的最低价格</translation>
    </message>
    <message>
        <source>Type the number of model parameters to see the estimate.</source>
        <translation>输入模型参数量即可查看估算。</translation>
    </message>
    <message>
        <source>Cheapest anywhere</source>
        <extracomment>the Price in choice that takes the cheapest price wherever it is.</extracomment>
        <translation>任意地方最低价</translation>
    </message>
    <message>
        <source>{cloud} (any region)</source>
        <translation>{cloud}（任意区域）</translation>
    </message>
    <message>
        <source>USD per chip-hour, e.g. 2.5</source>
        <extracomment>a row&apos;s place in the estimate (fastest first, then by chip id): how cells without a number sort</extracomment>
        <translation>每芯片小时美元数，例如 2.5</translation>
    </message>
    <message>
        <source>A measured device has no price here: costs are for catalogue chips</source>
        <translation>实测设备在这里没有价格：成本只针对目录中的芯片</translation>
    </message>
    <message>
        <source>what limits a decode step: compute, or reading weights and KV cache from memory</source>
        <translation>限制解码步的因素：计算，或从内存读取权重和 KV 缓存</translation>
    </message>
    <message>
        <source>training is compute-bound</source>
        <translation>训练受计算限制</translation>
    </message>
    <message>
        <source>Layout: {layout} (TP: tensor parallel inside the fast-link group; FSDP: the state sharded over that many groups; DP: copies working side by side). Why: {why}</source>
        <translation>布局：{layout}（TP：高速互联组内的张量并行；FSDP：状态分片到这么多个组上；DP：并行工作的副本）。原因：{why}</translation>
    </message>
    <message>
        <source>{inputs}: {flops} FLOPs in all. Fastest first; times run from the high to the low MFU (memory-bound decode: from the high to the low bandwidth share).</source>
        <translation>{inputs}：总计 {flops} FLOPs。最快的排在前面；时间从高 MFU 到低 MFU 的范围（受内存限制的解码：从高到低的带宽比例）。</translation>
    </message>
    <message>
        <source>Warning: {warning}</source>
        <translation>警告：{warning}</translation>
    </message>
    <message>
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
        <source>; </source>
        <translation>；</translation>
    </message>
</context>
<context>
    <name>ModelCheckBar</name>
    <message>
        <source>Python model file (*.py);;All files (*)</source>
        <extracomment>the chip counts the bar offers (0: no TPU compile, a faster check).</extracomment>
        <translation>Python 模型文件 (*.py);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Check my model…</source>
        <translation>检查我的模型…</translation>
    </message>
    <message>
        <source>Pick your model&apos;s Python file; it runs in a separate process, and the answers on this page are filled from what is measured</source>
        <translation>选择你模型的 Python 文件；它在单独的进程中运行，本页的回答将按测得的结果填写</translation>
    </message>
    <message>
        <source>Measure these answers from your own model file (PyTorch: model() and example_inputs(); JAX: params(), forward() and example_inputs()).</source>
        <translation>从你自己的模型文件测出这些回答（PyTorch：model() 和 example_inputs()；JAX：params()、forward() 和 example_inputs()）。</translation>
    </message>
    <message>
        <source>no TPU compile</source>
        <translation>不为 TPU 编译</translation>
    </message>
    <message>
        <source>1 chip</source>
        <translation>1 块芯片</translation>
    </message>
    <message>
        <source>{n} chips</source>
        <translation>{n} 块芯片</translation>
    </message>
    <message>
        <source>TPU chips to compile for</source>
        <translation>要编译的 TPU 芯片数</translation>
    </message>
    <message>
        <source>With libtpu installed, the check compiles your model for each TPU generation of the catalogue, for a slice of this many chips (more than one shows how the batch is split)</source>
        <translation>装有 libtpu 时，检查会为目录中的每代 TPU 编译你的模型，切片（slice）大小为此芯片数（多于一块时可看到批如何拆分）</translation>
    </message>
    <message>
        <source>Compile for TPU:</source>
        <translation>为 TPU 编译：</translation>
    </message>
    <message>
        <source>The Python your model is checked in: this app&apos;s own, or one of your environments, so that the packages your model imports (and their torch or JAX) are the ones you use</source>
        <translation>检查模型所用的 Python：本应用自带的，或你的某个环境，这样模型导入的包（及其 torch 或 JAX）就是你实际使用的</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Check a model file</source>
        <translation>检查模型文件</translation>
    </message>
    <message>
        <source>Starting the check of {file} in {python}…</source>
        <translation>正在 {python} 中开始检查 {file}…</translation>
    </message>
    <message>
        <source>Starting the check of {file}…</source>
        <translation>正在开始检查 {file}…</translation>
    </message>
    <message>
        <source>{step}; {elapsed} s elapsed</source>
        <translation>{step}；已用 {elapsed} 秒</translation>
    </message>
    <message>
        <source>{step}; {elapsed} s elapsed, about {left} s left</source>
        <translation>{step}；已用 {elapsed} 秒，约剩 {left} 秒</translation>
    </message>
    <message>
        <source>Checked {file} (saved with this session): evidence level {level}.</source>
        <translation>已检查 {file}（随本会话保存）：证据级别 {level}。</translation>
    </message>
    <message>
        <source>Check cancelled; the answers were left as they were.</source>
        <translation>检查已取消；回答保持原样。</translation>
    </message>
    <message>
        <source>The check did not run: {problem}</source>
        <translation>检查未运行：{problem}</translation>
    </message>
    <message>
        <source>The model check did not run</source>
        <translation>模型检查未运行</translation>
    </message>
    <message>
        <source>Checked {file} in {seconds} s: evidence level {level}. Measured values fill only the answers you left open; each stays yours to change.</source>
        <translation>已检查 {file}，用时 {seconds} 秒：证据级别 {level}。测得的值只填写你留空的回答；每个回答仍可由你修改。</translation>
    </message>
</context>
<context>
    <name>ModelCheckProcess</name>
    <message>
        <source>choose the Python environment that has the package in the Python selector beside Check my model…</source>
        <translation>请在「检查我的模型…」旁边的 Python 选择器中选择装有该包的 Python 环境</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>{file}: the check&apos;s worker process could not start</source>
        <translation>{file}：检查的工作进程无法启动</translation>
    </message>
</context>
<context>
    <name>ProbePanel</name>
    <message>
        <source>Ready: choose a suite and press Run.</source>
        <translation>就绪：选择套件并点击「运行」。</translation>
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
        <source>Import run…</source>
        <translation>导入运行…</translation>
    </message>
    <message>
        <source>Open a run file measured elsewhere (e.g. on a cloud GPU or a TPU VM) and overlay it</source>
        <translation>打开在别处（例如云 GPU 或 TPU 虚拟机上）测得的运行文件并叠加显示</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Run as JSON…</source>
        <translation>运行导出为 JSON…</translation>
    </message>
    <message>
        <source>Run as CSV…</source>
        <translation>运行导出为 CSV…</translation>
    </message>
    <message>
        <source>This chart as PNG…</source>
        <translation>当前图表导出为 PNG…</translation>
    </message>
    <message>
        <source>This chart as SVG…</source>
        <translation>当前图表导出为 SVG…</translation>
    </message>
    <message>
        <source>This chart as a table…</source>
        <translation>此图表的表格…</translation>
    </message>
    <message>
        <source>Side panel</source>
        <translation>侧边栏</translation>
    </message>
    <message>
        <source>Show or hide devices, runs and messages (hidden by itself in a narrow window)</source>
        <translation>显示或隐藏设备、运行和消息（窗口较窄时自动隐藏）</translation>
    </message>
    <message>
        <source>Show the side panel</source>
        <translation>显示侧边栏</translation>
    </message>
    <message>
        <source>Look for devices again</source>
        <translation>重新查找设备</translation>
    </message>
    <message>
        <source>Devices on this machine</source>
        <translation>本机设备</translation>
    </message>
    <message>
        <source>Found by a worker process for each backend.</source>
        <translation>由每个后端各自的工作进程查找。</translation>
    </message>
    <message>
        <source>Runs shown</source>
        <translation>显示的运行</translation>
    </message>
    <message>
        <source>Messages</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Cannot open this run file</source>
        <translation>无法打开此运行文件</translation>
    </message>
    <message>
        <source>{file}: this run is already shown.</source>
        <translation>{file}：此运行已在显示中。</translation>
    </message>
    <message>
        <source>{path}: cannot be shown ({problem})</source>
        <translation>{path}：无法显示（{problem}）</translation>
    </message>
    <message>
        <source>Imported {file}: {run}, {n} results ({ok} ok).</source>
        <translation>已导入 {file}：{run}，{n} 个结果（{ok} 个正常）。</translation>
    </message>
    <message>
        <source>Imported the run of {host} ({n} results)</source>
        <translation>已导入 {host} 的运行（{n} 条结果）</translation>
    </message>
    <message>
        <source>there is no run to export yet</source>
        <translation>还没有可导出的运行</translation>
    </message>
    <message>
        <source>Saved {run} to {path}.</source>
        <translation>已将 {run} 保存到 {path}。</translation>
    </message>
    <message>
        <source>Exported the run</source>
        <translation>已导出运行</translation>
    </message>
    <message>
        <source>unknown chart {chart} (choose from {charts})</source>
        <translation>未知图表 {chart}（可选：{charts}）</translation>
    </message>
    <message>
        <source>Saved the {chart} chart to {path}.</source>
        <translation>已将 {chart} 图表保存到 {path}。</translation>
    </message>
    <message>
        <source>Exported the {chart} chart</source>
        <translation>已导出 {chart} 图表</translation>
    </message>
    <message>
        <source>{tip} ({keys})</source>
        <extracomment>below this width the side panel hides itself, unless the user chose otherwise</extracomment>
        <translation>{tip}（{keys}）</translation>
    </message>
    <message>
        <source>As found by the run of {when}; press the button to look again.</source>
        <translation>来自 {when} 的运行所找到的设备；点击按钮可重新查找。</translation>
    </message>
    <message>
        <source>Import a probe run</source>
        <translation>导入探测运行</translation>
    </message>
    <message>
        <source>Probe runs (*.json);;All files (*)</source>
        <translation>探测运行 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>JSON run file (*.json)</source>
        <translation>JSON 运行文件 (*.json)</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>Export the run</source>
        <translation>导出运行</translation>
    </message>
    <message>
        <source>Export the chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>Cannot save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <source>Probes now run in {python}.</source>
        <translation>现在探测在 {python} 中运行。</translation>
    </message>
    <message>
        <source>this app’s own Python</source>
        <translation>本应用自带的 Python</translation>
    </message>
</context>
<context>
    <name>ProbeProcess</name>
    <message>
        <source>Cancelling: the results already measured are kept.</source>
        <extracomment>How often the watchdog asks the session whether the running point is past its cap. How long a closing window waits for a killed worker to be reaped.</extracomment>
        <translation>正在取消：已测得的结果会保留。</translation>
    </message>
    <message>
        <source>{where}: {message}</source>
        <translation>{where}：{message}</translation>
    </message>
    <message>
        <source>{point}: {status}: {message}</source>
        <translation>{point}：{status}：{message}</translation>
    </message>
    <message>
        <source>{point}: {status}</source>
        <translation>{point}：{status}</translation>
    </message>
    <message>
        <source>{backend}: stopped early: {message}</source>
        <translation>{backend}：提前停止：{message}</translation>
    </message>
    <message>
        <source>{point} ran past its time cap</source>
        <translation>{point} 超出了时间上限</translation>
    </message>
    <message>
        <source>the worker did not start in time</source>
        <translation>工作进程未能及时启动</translation>
    </message>
    <message>
        <source>{backend}: {what}; stopping that worker and going on.</source>
        <translation>{backend}：{what}；停止该工作进程并继续。</translation>
    </message>
    <message>
        <source>{backend}: could not start the worker: {reason}</source>
        <translation>{backend}：无法启动工作进程：{reason}</translation>
    </message>
</context>
<context>
    <name>ProbeRunner</name>
    <message>
        <source>unknown suite {suite} (choose from {suites})</source>
        <translation>未知套件 {suite}（可选：{suites}）</translation>
    </message>
    <message>
        <source>Choose at least one backend (torch or jax) to run a probe.</source>
        <translation>请至少选择一个后端（torch 或 jax）来运行探测。</translation>
    </message>
    <message>
        <source>Cancelled before the probe started.</source>
        <translation>已在探测开始前取消。</translation>
    </message>
    <message>
        <source>Ready: choose a suite and press Run.</source>
        <translation>就绪：选择套件并点击「运行」。</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>Looking for devices (each backend in its own worker)…</source>
        <translation>正在查找设备（每个后端在各自的工作进程中）…</translation>
    </message>
    <message>
        <source>A probe is running: the collective run starts once it is done or cancelled.</source>
        <translation>有探测正在运行：集合通信运行将在其完成或取消后开始。</translation>
    </message>
    <message>
        <source>Measuring across {n} processes…</source>
        <translation>正在跨 {n} 个进程测量…</translation>
    </message>
    <message>
        <source>Collectives: starting {n} processes ({backends})…</source>
        <translation>集合通信：正在启动 {n} 个进程（{backends}）…</translation>
    </message>
    <message>
        <source>Measuring collectives: {command}</source>
        <translation>正在测量集合通信：{command}</translation>
    </message>
    <message>
        <source>Measure across {n} processes</source>
        <translation>跨 {n} 个进程测量</translation>
    </message>
    <message>
        <source>kernels {kernels}</source>
        <translation>内核 {kernels}</translation>
    </message>
    <message>
        <source>dtypes {dtypes}</source>
        <translation>数据类型 {dtypes}</translation>
    </message>
    <message>
        <source>Started the {suite} suite on {backends} ({limits}).</source>
        <translation>已在 {backends} 上开始{suite}套件（{limits}）。</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>Started the {suite} suite on {backends}.</source>
        <translation>已在 {backends} 上开始{suite}套件。</translation>
    </message>
    <message>
        <source>{backend}: on the worker started ahead of time; planning the points…</source>
        <translation>{backend}：使用提前启动的工作进程；正在规划测量点…</translation>
    </message>
    <message>
        <source>{backend}: {point} · point {n} of {total} · {elapsed} so far{eta}{then}</source>
        <translation>{backend}：{point} · 第 {n} / {total} 个测量点 · 已用 {elapsed}{eta}{then}</translation>
    </message>
    <message>
        <source>Getting ready: finding devices ({left} still loading) and loading the {first} worker; measuring starts right after, so detection cannot disturb it…</source>
        <translation>准备中：正在查找设备（还有 {left} 个在加载）并加载 {first} 工作进程；随后立即开始测量，查找设备不会干扰测量…</translation>
    </message>
    <message>
        <source>Starting the {backend} worker (loading {backend}, finding its devices)…</source>
        <translation>正在启动 {backend} 工作进程（加载 {backend}，查找其设备）…</translation>
    </message>
    <message>
        <source>, then {backends}</source>
        <translation>，然后是 {backends}</translation>
    </message>
    <message>
        <source>no results</source>
        <translation>没有结果</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>已取消</translation>
    </message>
    <message>
        <source>Finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>Finished with problems</source>
        <translation>已完成，但有问题</translation>
    </message>
    <message>
        <source>{head} after {time}: {n} results ({detail}).</source>
        <translation>{head}，用时 {time}：{n} 个结果（{detail}）。</translation>
    </message>
    <message>
        <source>{head}: {n} results in {time}</source>
        <translation>{head}：{n} 个结果，用时 {time}</translation>
    </message>
    <message>
        <source>Found by a worker process for each backend.</source>
        <translation>由每个后端各自的工作进程查找。</translation>
    </message>
    <message>
        <source>{backend}: not usable here: {reason}</source>
        <translation>{backend}：在此不可用：{reason}</translation>
    </message>
</context>
<context>
    <name>ResultsModel</name>
    <message>
        <source>ok</source>
        <extracomment>a result&apos;s status and a run&apos;s suite as shown (English here; words() gives the language in use)</extracomment>
        <translation>正常</translation>
    </message>
    <message>
        <source>suspect</source>
        <translation>可疑</translation>
    </message>
    <message>
        <source>timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>已跳过</translation>
    </message>
    <message>
        <source>smoke</source>
        <translation>冒烟</translation>
    </message>
    <message>
        <source>quick</source>
        <translation>快速</translation>
    </message>
    <message>
        <source>full</source>
        <translation>完整</translation>
    </message>
    <message>
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
        <source>{suite} (functional check, not a benchmark)</source>
        <translation>{suite}（功能检查，不是基准测试）</translation>
    </message>
    <message>
        <source>{label} (partial)</source>
        <translation>{label}（不完整）</translation>
    </message>
    <message>
        <source>Run</source>
        <extracomment>the columns&apos; English names (their keys); headers are translated where shown</extracomment>
        <translation>运行</translation>
    </message>
    <message>
        <source>Kernel</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <source>Median</source>
        <translation>中位数</translation>
    </message>
    <message>
        <source>CV / IQR</source>
        <translation>CV / IQR</translation>
    </message>
    <message>
        <source>% ceiling</source>
        <translation>占上限 %</translation>
    </message>
    <message>
        <source>% spec</source>
        <translation>占规格 %</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Suspect: faster than the chip&apos;s published peak, so the timing is probably wrong. Not counted as a ceiling.</source>
        <translation>可疑：比芯片公布的峰值还快，计时很可能有误。不计作上限。</translation>
    </message>
    <message>
        <source>Timed out: the point ran past its time cap and was stopped.</source>
        <translation>超时：该测量点超出了时间上限，已被停止。</translation>
    </message>
    <message>
        <source>Failed: the point raised an error or the worker stopped.</source>
        <translation>失败：该测量点出错，或工作进程已停止。</translation>
    </message>
    <message>
        <source>Skipped: not applicable on this device or left out to stay within the time budget.</source>
        <translation>已跳过：不适用于此设备，或为留在时间预算内而省略。</translation>
    </message>
    <message>
        <source>Not trusted, so never a best value, a ceiling, an estimator row or evidence:</source>
        <translation>不可信，因此从不作为最佳值、上限、估算器的行或证据：</translation>
    </message>
    <message>
        <source>Median of the repetitions (rates in FLOP/s or B/s; times in seconds)</source>
        <translation>各次重复的中位数（速率以 FLOP/s 或 B/s 计；时间以秒计）</translation>
    </message>
    <message>
        <source>Spread: coefficient of variation and interquartile range of the repetitions, as % of the median; hover a cell for the values, min and max</source>
        <translation>离散程度：各次重复的变异系数和四分位距，以中位数的百分比表示；悬停在单元格上可查看数值、最小值和最大值</translation>
    </message>
    <message>
        <source>Percent of the best trusted result of the same kernel, device and dtype in this run</source>
        <translation>占本次运行中同一内核、设备和数据类型最佳可信结果的百分比</translation>
    </message>
    <message>
        <source>ok, a failure, or why a measured point is not trusted: {rule}</source>
        <translation>正常、失败，或测量点不可信的原因：{rule}</translation>
    </message>
    <message>
        <source>Percent of the published dense peak of the matched catalogue chip</source>
        <translation>占所匹配目录芯片公布的稠密峰值的百分比</translation>
    </message>
    <message>
        <source>math mode: {mode}</source>
        <translation>数学模式：{mode}</translation>
    </message>
</context>
<context>
    <name>ResultsTable</name>
    <message>
        <source>Filter results (kernel, device, dtype, status…)</source>
        <translation>筛选结果（内核、设备、数据类型、状态…）</translation>
    </message>
    <message>
        <source>Results</source>
        <translation>结果</translation>
    </message>
</context>
<context>
    <name>RunControls</name>
    <message>
        <source>smoke: a few points per kernel, seconds; checks that everything works</source>
        <extracomment>each suite in a line (English; suite_help() gives it in the language in use)</extracomment>
        <translation>冒烟：每个内核几个测量点，几秒钟；检查一切是否正常工作</translation>
    </message>
    <message>
        <source>quick: the main sweep within about {seconds} s</source>
        <translation>快速：主要扫描，约 {seconds} 秒内完成</translation>
    </message>
    <message>
        <source>full: every kernel and size, up to about {minutes} minutes</source>
        <translation>完整：所有内核和大小，最多约 {minutes} 分钟</translation>
    </message>
    <message>
        <source>{n} s</source>
        <extracomment>Time budgets offered besides the suite&apos;s own (seconds).</extracomment>
        <translation>{n} 秒</translation>
    </message>
    <message>
        <source>{n} min</source>
        <translation>{n} 分钟</translation>
    </message>
    <message>
        <source>How thorough the probe is: {suites}</source>
        <translation>探测的详尽程度：{suites}</translation>
    </message>
    <message>
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <source>Probe with {backend} (in its own worker process)</source>
        <translation>用 {backend} 探测（在它自己的工作进程中）</translation>
    </message>
    <message>
        <source>Time budget for the run</source>
        <translation>本次运行的时间预算</translation>
    </message>
    <message>
        <source>How long the whole run may take; points that do not fit are left out, and each one left out says so</source>
        <translation>整次运行最多可用的时间；放不进去的测量点会被省略，每个被省略的点都会注明</translation>
    </message>
    <message>
        <source>Kernels</source>
        <translation>内核</translation>
    </message>
    <message>
        <source>Limit the run to some kernels (default: every kernel of the suite)</source>
        <translation>只运行部分内核（默认：套件中的所有内核）</translation>
    </message>
    <message>
        <source>Dtypes</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>Limit matmul and friends to some dtypes (default: every dtype the device supports)</source>
        <translation>只让矩阵乘法等内核使用部分数据类型（默认：设备支持的所有数据类型）</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Measure this machine with the chosen suite</source>
        <translation>用所选套件测量本机</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop now and keep the results measured so far</source>
        <translation>立即停止，保留已测得的结果</translation>
    </message>
    <message>
        <source>suite&apos;s ({time})</source>
        <translation>套件默认（{time}）</translation>
    </message>
    <message>
        <source>Suite</source>
        <translation>套件</translation>
    </message>
    <message>
        <source>&amp;Time</source>
        <translation>时间(&amp;T)</translation>
    </message>
    <message>
        <source>Backends</source>
        <translation>后端</translation>
    </message>
</context>
<context>
    <name>RunsList</name>
    <message>
        <source>this machine · running</source>
        <translation>本机 · 运行中</translation>
    </message>
    <message>
        <source>imported · {label}</source>
        <translation>已导入 · {label}</translation>
    </message>
    <message>
        <source>Tick to show a run in the charts; right-click to remove it from the page</source>
        <translation>勾选以在图表中显示某次运行；右键可将其从页面移除</translation>
    </message>
    <message>
        <source>no devices</source>
        <translation>无设备</translation>
    </message>
    <message>
        <source>{host} · {os}
{devices}
{n} results · suite {suite}</source>
        <translation>{host} · {os}
{devices}
{n} 个结果 · 套件 {suite}</translation>
    </message>
    <message>
        <source>Remove from the page</source>
        <translation>从页面移除</translation>
    </message>
</context>
</TS>
