# gpumeter 的简体中文消息：各命令的输出。每个 id 都必须在 i18n/en/ 下的同名文件中存在且参数相同，
# 且不在两个文件中重复，否则测试失败。

# checklist
checklist-after-release = 释放 { $instance } 后，以下资源仍会继续计费：
checklist-released = { $instance } 已释放；以下资源仍在计费：
checklist-still-billing = 仍在计费：
checklist-not-checked = 未检查：{ $what }
checklist-nothing = 释放后不会有资源继续计费。
checklist-nothing-listed = 列出的资源在释放后都不会继续计费，但有些内容未能读取：
checklist-price-unknown = 价格未知
checklist-per-month = { $amount }/月
checklist-days-old = 存在 { $days } 天
# $known is the priced part with its currency, $count how many things have no price.
checklist-total = 继续计费合计：{ $count ->
        [0] { $known }/月
       *[other] ≥ { $known }/月 + { $count } 项未知
    }
checklist-total-and-unchecked = 继续计费合计：{ $count ->
        [0] { $known }/月
       *[other] ≥ { $known }/月 + { $count } 项未知
    }（另加未能检查的部分）
checklist-exposed = 他人可读取的数据：

# status
status-cloud = 云
status-instance = 实例
status-cost = 费用
status-prices = 价格
status-deadline = 截止
status-warning = 警告
status-none-listed = 未列出
status-instance-line = { $id }「{ $name }」，{ $provider }，{ $sku }，{ $state }
status-cost-line = 至今 { $total } { $currency }（已计费 { $billed }）：计算 { $compute }，带宽 { $bandwidth }，存储 { $storage }，其他 { $extras }；当前 { $burn } { $currency }/小时
status-incomplete = 不完整，未计入：{ $unknown }
status-cost-unknown = 未知：没有价格表为 { $sku } 定价
status-prices-live = 计算用云服务商自己的价格；其余来自价格表 { $sheet }
status-prices-sheet = 价格表 { $sheet }（{ $region }）
status-prices-other-region = 价格表 { $sheet }（{ $region }），为 { $instance_region } 估算
status-no-region = 无地域
status-this-region = 本地域
status-deadline-released = 无：实例已释放
status-deadline-none = 未设置，云服务商也未托管
status-forced-release-label = 强制释放
status-forced-release = { $provider } 将在 { $left } 后（{ $at }）释放：关机满 { $days } 天会清除 { $erases }；开机可重新计时
status-forced-release-due = { $provider } 现在即可释放：关机已满 { $days } 天；{ $erases } 可能已被清除
status-resources = 资源（{ $count } 项），释放一个月后：
status-survives = 保留
status-goes-with-it = 随实例删除
status-unpriced = 未定价
status-still-billing = 仍在计费：每月 { $amount }
status-keeps-billing = 释放后继续计费：每月 { $amount }
status-unpriced-line = 未定价：{ $what }
status-not-checked = 未检查：{ $what }
status-gpu-none = 无：{ $why }
status-gpu-none-by-choice = 无，符合预期：实例以无卡模式运行，不带 GPU
status-gpu-none-listed = NVML 没有报告任何 GPU
status-col-name = 名称
status-col-util = 利用率
status-col-load = 负载
status-col-mem = 显存 MiB
status-col-power = 功率 W
status-col-temp = 温度
status-col-procs = 进程
status-findings = 发现

# sweep: shut-down instances the platform releases on its own.
sweep-forced-heading = 已关机，{ $provider } 将自动释放（开机可重新计时）：
sweep-forced-in = { $left } 后释放（{ $at }），即关机满 { $days } 天时
sweep-forced-due = 已到期：关机已满 { $days } 天
sweep-forced-erases = 将清除 { $erases }
sweep-forced-not-checked = 已关机的实例

# The burn a prepaid balance is drawn down by, where it leaves something out.
burn-this-instance-only = （仅本实例；未计入其他实例）
burn-uncounted = （另有 { $count } 个运行中的实例无价格，未计入）

# --version 的详细形式与手册页
meta-version-gpus = GPU：通过 NVML 读取，运行时从 NVIDIA 驱动（libnvidia-ml.so.1）加载
meta-version-sheets = 内置价格表：
meta-version-as-of = 价格日期 { $date }
meta-man-failed = 手册页：{ $error }

# 检测到了云但尚未配置：它的操作需要什么
context-no-provider = 未配置云服务商：请在配置中设置 [instance] provider，或试试 --demo
context-configure-provider = 配置云服务商
context-ways-or = { $init } 或 { $last }
context-ways-or-many = { $init } 或 { $last }
context-detected-needs = 关机、释放、截止时间以及释放后仍计费的资源（磁盘、快照、地址）都需要 { $provider } 的凭证：{ $give }（{ $why }）
cred-way-aws-1 = 设置 AWS_ACCESS_KEY_ID 和 AWS_SECRET_ACCESS_KEY
cred-way-aws-2 = 用 AWS_PROFILE 指定一个 profile
cred-way-aws-3 = 为实例绑定实例角色
cred-way-alibaba-1 = 设置 ALIBABA_CLOUD_ACCESS_KEY_ID 和 ALIBABA_CLOUD_ACCESS_KEY_SECRET
cred-way-alibaba-2 = 配置 aliyun CLI
cred-way-alibaba-3 = 为实例授予 RAM 角色
cred-way-tencent-1 = 设置 TENCENTCLOUD_SECRET_ID 和 TENCENTCLOUD_SECRET_KEY
cred-way-tencent-2 = 配置 tccli
cred-way-tencent-3 = 为实例绑定 CAM 角色
cred-way-lambda-1 = 设置 LAMBDA_API_KEY
cred-way-runpod-1 = 设置 RUNPOD_API_KEY
cred-way-vast-1 = 设置 VAST_API_KEY
cred-way-vast-2 = 实例内的 CONTAINER_API_KEY
cred-way-autodl-1 = 设置 AUTODL_TOKEN
cred-way-autodl-2 = 把令牌写入 ~/.config/gpumeter/autodl-token（或 AUTODL_CREDENTIALS_FILE 指定的文件）
