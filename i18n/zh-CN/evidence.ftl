# `audit --evidence DIR`：退款申请的 summary.md，一封给客服看的 Markdown 信。
# 金额、时间、ID 和账单自己的文字传入时已格式化。
