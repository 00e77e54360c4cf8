# gpumeter 的错误及修复方法的简体中文，即 stderr 上 `gpumeter: ` 之后的内容。云服务商自己的错误码和
# 消息、路径、参数、环境变量和命令保持原样。

# 程序
err-core-dumps-on = 警告：核心转储仍处于开启状态：{ $error }
