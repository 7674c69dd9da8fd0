<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>BandwidthChart</name>
    <message>
        <source>Memory and transfer bandwidth (best of each kernel)</source>
        <translation>内存与传输带宽（各内核的最佳值）</translation>
    </message>
    <message>
        <source>bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>bandwidth results</source>
        <translation>带宽结果</translation>
    </message>
    <message>
        <source>copy, triad and transfer appear here.</source>
        <translation>copy、triad 与传输的结果会显示在这里。</translation>
    </message>
    <message>
        <source>dashed, hollow: not trusted (hover a bar for why)</source>
        <translation>虚线空心：不可信（悬停在柱上查看原因）</translation>
    </message>
    <message>
        <source>{series} (not trusted)</source>
        <translation>{series}（不可信）</translation>
    </message>
    <message>
        <source>{value} (not trusted)</source>
        <translation>{value}（不可信）</translation>
    </message>
</context>
<context>
    <name>ChartsView</name>
    <message>
        <source>Matmul</source>
        <translation>矩阵乘法</translation>
    </message>
    <message>
        <source>Bandwidth</source>
        <translation>带宽</translation>
    </message>
    <message>
        <source>Roofline</source>
        <translation>屋顶线（roofline）</translation>
    </message>
    <message>
        <source>Compile (JAX)</source>
        <translation>编译（JAX）</translation>
    </message>
    <message>
        <source>Collectives</source>
        <translation>集合通信</translation>
    </message>
    <message>
        <source>Charts</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>{path}: choose a .png or .svg file name</source>
        <translation>{path}：请选择 .png 或 .svg 文件名</translation>
    </message>
</context>
<context>
    <name>CollectiveChart</name>
    <message>
        <source>Collectives across processes: bus bandwidth</source>
        <translation>跨进程集合通信：总线带宽</translation>
    </message>
    <message>
        <source>Which collective to draw</source>
        <translation>要绘制哪种集合通信</translation>
    </message>
    <message>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Measure across {n} processes</source>
        <translation>跨 {n} 个进程测量</translation>
    </message>
    <message>
        <source>Start {n} processes on this machine and measure all-reduce, all-gather and reduce-scatter between them (about a minute per backend)</source>
        <translation>在本机启动 {n} 个进程，测量它们之间的 all-reduce、all-gather 和 reduce-scatter（每个后端约一分钟）</translation>
    </message>
    <message>
        <source>bus bandwidth = message size ÷ time × 2(n−1)/n (all-reduce) or (n−1)/n, as nccl-tests</source>
        <translation>总线带宽 = 消息大小 ÷ 时间 × 2(n−1)/n（all-reduce）或 (n−1)/n，与 nccl-tests 相同</translation>
    </message>
    <message>
        <source>message size (log scale)</source>
        <translation>消息大小（对数刻度）</translation>
    </message>
    <message>
        <source>bus bandwidth, B/s (log scale)</source>
        <translation>总线带宽，B/s（对数刻度）</translation>
    </message>
    <message>
        <source>No collectives across processes yet: press “Measure across {n} processes” above,
or import a run measured across machines.</source>
        <translation>还没有跨进程的集合通信结果：点击上方的「跨 {n} 个进程测量」，
或导入一个跨机器测量的运行。</translation>
    </message>
</context>
<context>
    <name>CompileWaterfall</name>
    <message>
        <source>cold first call</source>
        <extracomment>one hue per compile phase, none of them shared with a neighbour in the waterfall each phase&apos;s name (English; phase_label gives it in the language in use)</extracomment>
        <translation>冷启动首次调用</translation>
    </message>
    <message>
        <source>trace</source>
        <translation>追踪（trace）</translation>
    </message>
    <message>
        <source>trace + lower</source>
        <translation>追踪 + 下降（lowering）</translation>
    </message>
    <message>
        <source>compile</source>
        <translation>编译</translation>
    </message>
    <message>
        <source>first call</source>
        <translation>首次调用</translation>
    </message>
    <message>
        <source>rest of the first call (run)</source>
        <translation>首次调用的其余部分（执行）</translation>
    </message>
    <message>
        <source>steady call</source>
        <translation>稳态调用</translation>
    </message>
    <message>
        <source>JAX compile waterfall: the first call of a new jitted function, then a steady call</source>
        <translation>JAX 编译瀑布图：新 jit 函数的首次调用，然后是一次稳态调用</translation>
    </message>
    <message>
        <source>elapsed time (linear)</source>
        <translation>经过时间（线性刻度）</translation>
    </message>
    <message>
        <source>JAX compile results</source>
        <translation>JAX 编译结果</translation>
    </message>
    <message>
        <source>the quick or full suite with jax</source>
        <translation>用 jax 运行快速或完整套件</translation>
    </message>
</context>
<context>
    <name>RooflineChart</name>
    <message>
        <source>Roofline</source>
        <translation>屋顶线（roofline）</translation>
    </message>
    <message>
        <source>arithmetic intensity (FLOP per byte, log scale)</source>
        <extracomment>intensity range shown (FLOP per byte)</extracomment>
        <translation>算术强度（每字节 FLOP，对数刻度）</translation>
    </message>
    <message>
        <source>FLOP/s (log scale)</source>
        <translation>FLOP/s（对数刻度）</translation>
    </message>
    <message>
        <source>Compute ceiling for this dtype (measured matmul and catalogue peak)</source>
        <translation>此数据类型的计算上限（实测矩阵乘法与目录峰值）</translation>
    </message>
    <message>
        <source>Compare with chips</source>
        <translation>与芯片比较</translation>
    </message>
    <message>
        <source>Draw the published ceilings of catalogue GPUs and TPUs (dashed)</source>
        <translation>绘制目录中 GPU 与 TPU 公布的上限（虚线）</translation>
    </message>
    <message>
        <source>dtype</source>
        <translation>数据类型</translation>
    </message>
    <message>
        <source>GPUs (the workshop)</source>
        <translation>GPU（工坊）</translation>
    </message>
    <message>
        <source>TPUs (the factory line)</source>
        <translation>TPU（流水线）</translation>
    </message>
    <message>
        <source>Other accelerators (AWS Trainium and Inferentia, Intel Gaudi)</source>
        <translation>其他加速器（AWS Trainium 与 Inferentia、Intel Gaudi）</translation>
    </message>
    <message>
        <source>Compare with chips ({n})</source>
        <translation>与芯片比较（{n}）</translation>
    </message>
    <message>
        <source>No {dtype} matmul or memory bandwidth measured yet. Run a probe, import a run file, or pick catalogue chips to compare.</source>
        <translation>还没有测得 {dtype} 矩阵乘法或内存带宽。运行一次探测、导入运行文件，或选择目录中的芯片来比较。</translation>
    </message>
    <message>
        <source>measured: {label}</source>
        <translation>实测：{label}</translation>
    </message>
    <message>
        <source>hollow: not trusted, never a ceiling (hover a point for why)</source>
        <translation>空心：不可信，从不作为上限（悬停在点上查看原因）</translation>
    </message>
    <message>
        <source>measured: {label} ({figures})</source>
        <translation>实测：{label}（{figures}）</translation>
    </message>
    <message>
        <source>no published {dtype} peak</source>
        <translation>无公布的 {dtype} 峰值</translation>
    </message>
    <message>
        <source>no published bandwidth</source>
        <translation>无公布的带宽</translation>
    </message>
    <message>
        <source>spec: {chip} ({peak}, {bw})</source>
        <translation>规格：{chip}（{peak}，{bw}）</translation>
    </message>
</context>
<context>
    <name>ThroughputChart</name>
    <message>
        <source>Matmul throughput</source>
        <translation>矩阵乘法吞吐量</translation>
    </message>
    <message>
        <source>Log scale (throughput)</source>
        <translation>对数刻度（吞吐量）</translation>
    </message>
    <message>
        <source>Compare runs whose speeds differ by orders of magnitude, e.g. a laptop CPU and a TPU</source>
        <translation>对比速度相差几个数量级的运行，例如笔记本 CPU 与 TPU</translation>
    </message>
    <message>
        <source>matrix size N (N×N, log scale)</source>
        <translation>矩阵大小 N（N×N，对数刻度）</translation>
    </message>
    <message>
        <source>FLOP/s (log scale)</source>
        <translation>FLOP/s（对数刻度）</translation>
    </message>
    <message>
        <source>matmul results</source>
        <translation>矩阵乘法结果</translation>
    </message>
    <message>
        <source>run a probe or import a run file.</source>
        <translation>运行一次探测或导入运行文件。</translation>
    </message>
</context>
<context>
    <name>_Chart</name>
    <message>
        <source>(and {n} more)</source>
        <extracomment>Colour-blind-safe series colours (Okabe &amp; Ito), after the theme&apos;s accent.</extracomment>
        <translation>（还有 {n} 个）</translation>
    </message>
    <message>
        <source>hollow: not trusted (hover a point for why)</source>
        <extracomment>With more series than this, the legend moves from under the plot to a side list with toggles. The legend entry that says what a hollow marker means (each series keeps its own entry).</extracomment>
        <translation>空心：不可信（悬停在点上查看原因）</translation>
    </message>
    <message>
        <source>Chart</source>
        <extracomment>The plot (title, axes and data) never gets shorter than this.</extracomment>
        <translation>图表</translation>
    </message>
    <message>
        <source>Series shown</source>
        <translation>显示的序列</translation>
    </message>
    <message>
        <source>Untick a series to hide it</source>
        <translation>取消勾选某个序列即可隐藏它</translation>
    </message>
    <message>
        <source>Show as table…</source>
        <translation>以表格显示…</translation>
    </message>
    <message>
        <source>{series} (not trusted)</source>
        <translation>{series}（不可信）</translation>
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
        <source>{path}: could not encode the PNG image</source>
        <translation>{path}：无法编码 PNG 图像</translation>
    </message>
    <message>
        <source>gpu-tpu-app probe chart</source>
        <translation>gpu-tpu-app 探测图表</translation>
    </message>
</context>
</TS>
