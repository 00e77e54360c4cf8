# gpumeter 的简体中文消息：estimate、pricing 和 report 打印的文字。每个 id 都必须在 i18n/en/ 下的
# 同名文件中存在且参数相同，且不在其他文件中出现。

# estimate
estimate-gpus = { $gpus } 块 GPU
estimate-sku-gpus = { $sku }（{ $count }）
estimate-runs = ，分 { $runs } 次开机
estimate-plan = { $what }，每天 { $hours_per_day } 小时{ $runs }，共 { $days } 天 = { $hours } 小时，币种 { $currency }
estimate-col-mode = 方式
estimate-col-compute = 计算
estimate-col-bandwidth = 带宽
estimate-col-storage = 存储
estimate-col-extras = 其他
estimate-col-total = 合计
estimate-mode-on-demand = 按量
estimate-mode-monthly = 包月
estimate-mode-mixed = 混合
estimate-mode-spot = 竞价
estimate-no-price = 无价格
estimate-unknown = 未知
estimate-at-least = ≥ { $total } + { $count } 项未知
estimate-cheapest = {"  "}<- 最便宜
estimate-inline-prices = 直接给出的价格
estimate-sheet = 价格表 `{ $sheet }`
estimate-unknown-note = 未知：{ $sheet }中没有{ $line }的价格（{ $key }）；不完整的合计未计入此项。
estimate-mixed-note = 混合：先{ $plans }，再按量 { $days } 天。
estimate-mixed-note-plans-only = 混合：{ $plans }。
estimate-plan-years = 包年 { $count } 年
estimate-plan-months = 包月 { $count } 个月（每月 { $month_hours } 小时）
estimate-plan-months-off = 包月 { $count } 个月（每月 { $month_hours } 小时，优惠 { $off }%）
estimate-plan-weeks = 包周 { $count } 周
estimate-plan-days = 包日 { $count } 天
estimate-plan-separator = 、
estimate-rerun-note = 竞价的计算费用包含预期重跑的 { $rerun }：每次回收平均损失半个检查点间隔的工作量。
estimate-rerun-unpriced = 竞价的计算费用未含重跑：回收频率未知（价目表的 billing.reclaims_per_day，或 --reclaims-per-day）。
estimate-restart-note = 竞价的计算费用包含预期重跑的 { $rerun }：没有检查点时，每次回收都让 { $job } 小时的任务从头再来（平均需 { $expected } 小时）。
estimate-restart-warning =
    警告：{ $job } 小时的竞价任务超过了两次回收之间通常的 { $interval } 小时，且未给出 --checkpoint-every：每次回收都从头再来。
    竞价的计算费用包含预期重跑的 { $rerun }（任务平均需 { $expected } 小时）。请把检查点保存在实例之外，并传入 --checkpoint-every。
estimate-restart-never =
    警告：{ $job } 小时的竞价任务，回收间隔 { $interval } 小时，又没有检查点，实际上永远跑不完：竞价合计不含重跑，也不会被标为最便宜。
    请把检查点保存在实例之外，并传入 --checkpoint-every。
estimate-other-note = 其他费用已计入，每个实例：{ $each }。
estimate-other-hourly = { $label } 开机时每小时 { $price }
estimate-other-monthly = { $label } 每月 { $price }
estimate-list-separator = ；
estimate-break-even = 盈亏平衡：每月使用超过 { $hours } 小时，包月更便宜。
estimate-note =
    注意：竞价实例随时可能被回收，只用于能从检查点恢复的任务。
    包月费用需预先支付，提前停用也不退款。

# estimate --compare
compare-any-gpu = 任意 GPU
compare-plan = { $gpu }，至少 { $gpus } 块 GPU，每天 { $hours_per_day } 小时，共 { $days } 天 = { $hours } 小时；合计以 { $currency } 计
compare-rate = 汇率：1 { $from } = { $rate } { $to }
compare-nothing-fits = 没有任何价格表的 SKU 符合条件。
compare-col-total = 合计 { $currency }
compare-col-per-gpu-hour = 每卡小时
compare-col-as-priced = 原币价格
compare-col-sheet = 价格表
compare-col-sku = SKU
compare-col-gpus = 卡数
compare-col-as-of = 价格日期
compare-incomplete = 不完整：价格表缺少计划所需的价格（列在其后）；每个合计至少为此数，因此不参与排名。
compare-not-comparable = 无法比较：没有到 { $currency } 的汇率；请用 --fx FROM:{ $currency }=RATE 或 [fx] rates 提供。
compare-stale-mark = {" "}过期
compare-stale = 过期：该价格表的价格已超过 { $days } 天。
compare-incomplete-mark = {"  "}不完整：{ $unknown }
compare-ranked = 按计划合计（计算 + 带宽 + 存储 + 其他）排名，而非按小时价格。

# pricing
pricing-stale = 警告：价格表 `{ $sheet }` 的日期为 { $date }（{ $age } 天前，超过 { $limit } 天）；其中的价格可能已有变动
pricing-heading = { $id }（{ $place }）：{ $currency }，价格日期 { $date }，{ $count } 个 SKU
pricing-gpus = { $count }x { $model } { $memory } GiB
pricing-on-demand-short = 按量 { $price }/小时
pricing-spot-short = 竞价 { $price }/小时
pricing-monthly-short = 包月 { $price }
pricing-units-short = 按算力单位 { $price }/小时
pricing-not-in-sheet = 此价格表中没有
pricing-row-sheet = 价格表
pricing-row-source = 来源
pricing-row-gpus = GPU
pricing-row-on-demand = 按量
pricing-row-spot = 竞价
pricing-row-monthly = 包月
pricing-row-compute-units = 算力单位
pricing-row-billing = 计费
pricing-row-egress = 出网流量
pricing-row-ingress = 入网流量
pricing-row-fixed-bandwidth = 固定带宽
pricing-row-disk = 磁盘 { $class }
pricing-row-snapshot = 快照
pricing-row-image = 镜像
pricing-row-network-volume = 网络存储卷
pricing-row-public-ip = 公网 IP
pricing-row-idle-public-ip = 闲置公网 IP
pricing-row-load-balancer = 负载均衡
pricing-row-license = 许可证
pricing-row-boot-fee = 开机费
pricing-gpus-each = { $count }x { $model }，每块 { $memory } GiB
pricing-per-month = /月
pricing-units = { $units } 单位/小时 x { $price } { $currency } = { $per_hour } { $currency }/小时
pricing-free-egress = ，每月免费 { $amount } { $unit }
pricing-per-mbps-month = /Mbps/月
pricing-while-stopped = （关机时 { $price }）
pricing-attached = /小时（已绑定）
pricing-per-start = /次开机
pricing-per-gpu-hour = { $price }（每 GPU 小时 { $per_gpu }）
pricing-keeps-billing = 计算继续计费
pricing-stops-billing = 计算停止计费
pricing-fraction-bills = 计算按 { $fraction } 计费
pricing-billing = 按 { $step } 秒计费，最低 { $minimum } 秒；关机时{ $stopped }；每月按 { $month } 小时计
pricing-valid = { $file }：正常，{ $heading }
pricing-place = { $provider }，{ $region }
pricing-per-hour = /小时
pricing-per-hour-up = /小时（开机时）
pricing-daily-short = 包日 { $price }
pricing-weekly-short = 包周 { $price }
pricing-yearly-short = 包年 { $price }
pricing-row-daily = 包日
pricing-row-weekly = 包周
pricing-row-yearly = 包年
pricing-per-day = /天
pricing-per-week = /周
pricing-per-year = /年
pricing-discount = 一次购买 { $months } 个月及以上：优惠 { $off }%
pricing-per-gib-month = /GiB/月
pricing-no-sku = { $place }中没有 SKU `{ $sku }`；`gpumeter pricing list` 会列出全部
pricing-any-bundled = 所有内置价格表

# report
report-spend-from = 从 { $since } 到 { $until } 的花费（{ $zone }）
report-local-time = 本地时间
report-nothing = 此时间段内没有任何记录。
report-col-day = 日期（{ $currency }）
report-col-idle = 空闲
report-total = 合计
report-billed = 已计费
report-idle-share = （占花费的 { $pct }%）
report-at-least = 合计至少为此数：未计入 { $count } 项未知：{ $unknown }
report-idle-spend = 空闲花费：{ $idle }{ $share }
report-chart = 每日花费（{ $currency }；█ 使用中，░ 空闲）
report-chart-idle = {"  "}空闲 { $pct }%
report-util = GPU 利用率 平均 { $mean }%，最高 { $max }%
report-util-none = GPU 利用率 无数据
report-usage = 能耗 { $kwh } kWh · { $util } · 出网流量 { $gib } GiB
report-egress-split = 其中：公网 { $internet }，内网 { $intranet }，跨地域 { $cross }
report-instances = 实例
report-instance-unknown = {" "}+ { $count } 项未知
report-instance-tail = （空闲 { $idle }，已计费 { $billed }），{ $sessions } 次会话
report-to-date = 各实例整个生命周期至今（与 status 所示相同）
report-account = 至今费用：{ $total }；每月仍在计费：{ $monthly }
report-account-unknown = 至今费用：未知，{ $why }
report-no-listing = 账本没有它的资源清单（旧版账本，或从未列出过的实例）
report-no-prices = 没有价格表为它定价
report-other-instance = 配置定价的是另一个实例（{ $provider } { $sku }），而不是此 { $listed_provider } { $listed_sku }
report-actions = 操作：{ $actions } · 警报：{ $alerts }
report-nothing-billing = 未发现释放后仍在计费的资源。
report-still-billing = 实例释放后仍在计费
report-price-unknown = 价格未知
report-per-month = { $amount }/月
report-released = （{ $instance } 于 { $at } 释放）
report-overlap = 重叠：{ $first } 和 { $second } 同时运行了 { $hours } 小时 { $minutes } 分钟（{ $from } 至 { $until }）
report-kind-system-disk = 系统盘
report-kind-data-disk = 数据盘
report-kind-snapshot = 快照
report-kind-image = 镜像
report-kind-public-ip = 公网 IP
report-kind-load-balancer = 负载均衡
report-kind-network-volume = 网络存储卷
report-kind-stopped-instance = 已关机实例
report-mode-on-demand = 按量
report-mode-spot = 竞价
report-mode-monthly = 包月
report-mode-compute-units = 算力单位
estimate-sku-not-in-sheet = --sku：价格表 `{ $sheet }` 中没有 `{ $sku }`；它有：{ $skus }
estimate-storage-rate-needed = 需要 --storage-rate：价格表 `{ $sheet }` 为多种磁盘类型定价（{ $classes }）
report-too-far-back = `{ $text }` 往前太远了
report-not-a-time = `{ $text }` 不是时间：请写从现在往前的时长（7d、36h、90m）、日期（2026-05-01）、本地时间（2026-05-01 18:30）或 RFC 3339 时刻
