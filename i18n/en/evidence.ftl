# `audit --evidence DIR`: the refund case summary.md, a Markdown letter a support desk reads.
# Amounts, times, ids and the bill's own text arrive formatted.
