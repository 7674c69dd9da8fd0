<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<!-- pyqtgraph's own words that the window shows: the charts' right-click "Export..." and the export dialog it
     opens (pyqtgraph sends them through QCoreApplication.translate). They are not in gpu_tpu_app's sources, so
     this file is kept by hand, not by pyside6-lupdate; tests/ui/test_pyqtgraph_zh.py checks it. -->
<context>
    <name>Exporter</name>
    <message>
        <source>separator</source>
        <translation>分隔符</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精度</translation>
    </message>
    <message>
        <source>columnMode</source>
        <translation>列模式</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>width</source>
        <translation>宽度</translation>
    </message>
    <message>
        <source>height</source>
        <translation>高度</translation>
    </message>
    <message>
        <source>antialias</source>
        <translation>抗锯齿</translation>
    </message>
    <message>
        <source>background</source>
        <translation>背景</translation>
    </message>
    <message>
        <source>invertValue</source>
        <translation>反转数值</translation>
    </message>
    <message>
        <source>Print Document</source>
        <translation>打印文档</translation>
    </message>
    <message>
        <source>scaling stroke</source>
        <translation>描边随缩放</translation>
    </message>
    <message>
        <source>Scalable Vector Graphics</source>
        <translation>可缩放矢量图形</translation>
    </message>
    <message>
        <source>Image File (PNG, TIF, JPG, ...)</source>
        <translation>图像文件（PNG、TIF、JPG 等）</translation>
    </message>
    <message>
        <source>Scalable Vector Graphics (SVG)</source>
        <translation>可缩放矢量图形（SVG）</translation>
    </message>
    <message>
        <source>CSV of original plot data</source>
        <translation>原始绘图数据的 CSV</translation>
    </message>
    <message>
        <source>HDF5 Export: plot (x,y)</source>
        <translation>HDF5 导出：绘图 (x,y)</translation>
    </message>
    <message>
        <source>Matplotlib Window</source>
        <translation>Matplotlib 窗口</translation>
    </message>
    <message>
        <source>Printer</source>
        <translation>打印机</translation>
    </message>
</context>
<context>
    <name>Form</name>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Item to export:</source>
        <translation>要导出的项：</translation>
    </message>
    <message>
        <source>Export format</source>
        <translation>导出格式</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Export options</source>
        <translation>导出选项</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
</context>
<context>
    <name>GraphicsScene</name>
    <message>
        <source>Export...</source>
        <translation>导出…</translation>
    </message>
</context>
</TS>
