# AWS：适配器自己说的话，包括回读、凭证查找与失败。

# 列表与共用片段
aws-call-accepted = { $call } 已被接受
aws-call-sent-read-failed = { $call } 已发送，但回读失败：{ $error }
aws-read-failed = { $done }，但回读失败：{ $error }
aws-unreadable-answer = 无法读取的响应：{ $what }
aws-too-many-pages = 超过 { $most } 页：列表未读到末尾
aws-url-not-http = 不是 http(s) URL
aws-url-no-host = 没有主机名
aws-endpoint-bad = { $service } 端点 `{ $endpoint }`：{ $why }
aws-fix-endpoint-url = 请将 { $var } 或 { $fallback } 设置为 http(s) URL
aws-cannot-be-read = 无法读取：{ $error }
aws-is-empty = 为空

# 实例：释放、停止和启动后的回读
aws-read-released = { $done }；EC2 已不再列出它
aws-read-not-listed = EC2 已不再列出该实例
aws-read-done-state = { $done }；EC2 回读为 `{ $state }`
aws-read-state = EC2 回读为 `{ $state }`
aws-already-released-seen = 已释放：EC2 已不再列出本数据目录见过的该实例
aws-already-released-state = 已释放（`{ $state }`）
aws-already-released-gone = 已释放：EC2 已不再认得它刚列出的实例
# $verb 为 `stop` 或 `start`
aws-released-not-listed-nothing-to = EC2 已不再列出该实例：它已释放；无需{ $verb ->
        [stop] 停止
       *[other] 启动
    }
aws-released-nothing-to = 已释放（`{ $state }`）；无需{ $verb ->
        [stop] 停止
       *[other] 启动
    }
aws-already-stopped = 已停止（`{ $state }`）
aws-already-running = 已在运行（`{ $state }`）

# 快照清理、镜像与地址
aws-malformed-no-snapshot-id = 响应中没有 snapshotId
aws-malformed-no-root-volume = 该实例没有可做快照的根卷
aws-snapshot-not-listed = 未列出
aws-snapshot-other-volume = 属于 { $other }，而不是 { $volume }
aws-snapshot-no-volume = 无卷
aws-final-not-completed = 最终快照 { $id } 的状态为 { $status }，读取 { $reads } 次后仍未完成；未删除任何快照
aws-clean-nothing = 没有要删除的；保留了 { $kept } 个快照
aws-clean-read-failed = 删除请求已发送，但回读失败：{ $error }
aws-clean-summary = 删除了 { $deleted } 个快照，保留了 { $kept } 个
aws-clean-final = ；最终快照 { $id }
aws-clean-final-missing = ；最终快照 { $id } 未找到
aws-clean-still-listed = ；仍被列出：{ $ids }
aws-clean-refused = ；被拒绝：{ $error }
aws-image-deregistered = { $id } 已注销
aws-image-still-listed = { $id } 仍被列出
aws-address-released = { $id } 已释放
aws-address-still-allocated = { $id } 仍处于已分配状态

# 适配器：实例、计划、缺口、无法做到的事
aws-no-instance-imds-off = 没有实例：请传入 --instance ID 或在配置中设置 [instance] id（元数据服务已关闭）
aws-fix-no-instance = 请传入 --instance ID 或在配置中设置 [instance] id
aws-plan-this-instance = <本实例，取自元数据服务>
aws-plan-root-volume = <根卷>
aws-plan-association = <其关联，以 DescribeAddresses 读到的为准>
aws-plan-read-back = { $call }   （回读）
aws-gap-released-unrecorded = 已释放的 { $id } 留下的卷和弹性 IP：本数据目录在它运行时从未记录其资源，而 EC2 不保留这些资源与已终止实例之间的关联，因此可能仍有未列出的资源在计费（`gpumeter sweep` 会列出 { $region } 中的全部资源）
aws-unsupported-deadline = 设置释放期限（EC2 没有实例期限）
aws-unsupported-delete-kind = 删除{ $kind }（本适配器尚未实现）
aws-unsupported-elb = 访问 Elastic Load Balancing（本次运行中没有它的客户端）
aws-disk-in-use-stopped = 被已停止的实例占用（in-use）

# 清单：无法读取的内容
aws-unreadable-launch-time = 实例 { $id } 没有可读取的 launchTime
aws-unreadable-state = 实例 { $id } 处于未知状态 `{ $state }`
aws-unreadable-instance = 无法读取实例 { $id }

# Elastic Load Balancing
aws-elb-unknown-state = 未知状态
aws-elb-no-healthy-target = { $state }，没有健康的目标
aws-elb-deleted = { $arn } 已删除；Elastic Load Balancing 已不再认得它
aws-elb-answer-unnamed = 一个未提及它的响应
aws-elb-still-reads-back = { $call } 已被接受，但 { $arn } 回读仍为 { $last }

# EC2 的响应
aws-check-keys-and-permissions = ；请检查 AWS_ACCESS_KEY_ID、AWS_SECRET_ACCESS_KEY 和账号的权限
aws-no-ec2-error = 响应中没有 EC2 错误
aws-what-credentials = 凭证
aws-what-access-key = 访问密钥
aws-what-signature = 签名
aws-what-session-token = 会话令牌
aws-xml-not-xml = 不是 XML（{ $error }）
aws-xml-wrong-root = 应为 <{ $action }Response>，实际为 <{ $root }>
aws-xml-missing = 没有 <{ $element }>
aws-xml-unreadable-expiration = 无法读取的 <Expiration>

# 凭证链：密钥来自哪里、在哪里查找过
aws-from-env = 环境变量
aws-from-given = 直接给定
aws-from-profile = 配置文件 { $profile }
aws-from-profile-key = 配置文件 { $profile } 的 { $key }
aws-from-env-credential-source = 环境变量（配置文件 { $profile } 的 credential_source）
aws-tried-role-arn = 配置文件 { $profile } 的 role_arn
aws-tried-web-identity = { $var } 及配置文件 { $profile } 的 web_identity_token_file
aws-tried-process = { $place } 中的 credential_process
aws-tried-instance-role = { $endpoint } 上的实例角色
aws-tried-instance-role-off = 实例角色（已关闭：{ $var }）
aws-tried-instance-role-source = { $endpoint } 上的实例角色（配置文件 { $profile } 的 credential_source）
aws-tried-credential-source = 配置文件 { $profile } 的 credential_source { $source }
aws-region-from-profile = ~/.aws/config 中配置文件的 region
aws-region-from-imds = 实例元数据服务

# 凭证链：无法使用的配置文件
aws-fix-profile = 请修正 ~/.aws/config 中的配置文件
aws-sso-profile = 配置文件 { $profile } 是 SSO 配置文件，这里不读取 SSO 令牌
aws-fix-sso = 请运行 `aws sso login --profile { $profile }`，然后运行 `eval "$(aws configure export-credentials --profile { $profile } --format env)"`；或改用带有 `credential_process = aws configure export-credentials --profile { $profile } --format process` 的配置文件
aws-web-identity-no-role = 已设置 { $from }，但没有设置角色：请设置 { $var } 或配置文件的 role_arn
aws-profile-both-sources = 配置文件 { $profile } 同时有 source_profile 和 credential_source
aws-profile-no-source = 配置文件 { $profile } 有 role_arn，但既没有 source_profile 也没有 credential_source
aws-source-profile-missing = 配置文件 { $profile } 的 source_profile { $name } 不存在
aws-source-profile-loop = source_profile 形成循环：{ $chain }
aws-role-chain-too-long = 串联的角色超过 { $most } 个：{ $chain }
aws-source-profile-no-keys = 配置文件 { $profile } 的 source_profile { $name } 没有凭证
aws-source-profile-no-role = source_profile { $name } 没有 role_arn
aws-credential-source-unknown = 配置文件 { $profile } 的 credential_source { $source } 不是 Environment、Ec2InstanceMetadata、EcsContainer 之一
aws-file-unreadable = 无法读取 { $path }：{ $error }

# 凭证链：无法使用的密钥
aws-expiration-unreadable = { $var } 的值 `{ $value }` 不是时间点，应形如 2026-12-05T18:30:00Z
aws-fix-expiration = 请按 `aws configure export-credentials --format env` 写出的格式导出 { $var }；长期密钥请取消设置它
aws-keys-expired = 来自 { $from } 的密钥已于 { $at } 过期（{ $var }）；未用它们发送任何请求
aws-fix-keys-expired = 请导出新的密钥（`eval "$(aws configure export-credentials --format env)"`）后重新启动

# credential_process
aws-process-failed = { $from } 中的 credential_process：{ $why }
aws-fix-process = 请手动运行该命令，查看它的输出
aws-process-no-start = 无法启动：{ $error }
aws-process-timeout = 耗时超过 { $seconds } 秒
aws-process-error = 失败：{ $error }
aws-process-exit = 失败（{ $status }）
aws-process-no-json = 没有输出含 Version、AccessKeyId 和 SecretAccessKey 的 JSON
aws-process-version = 返回的 Version 为 { $version }，而不是 1

# 容器凭证
aws-container-token-file-unreadable = 无法读取 { $var } { $path }：{ $error }
aws-container-token-lines = 容器授权令牌（{ $from }）不是单行请求头
aws-container-plain-http = 不允许以明文 http 访问 `{ $host }`
aws-fix-container-url = 请使用 https、环回地址或以下地址之一：{ $hosts }
aws-container-failed = 容器凭证端点（{ $from }）：{ $why }
aws-answered-http = 返回了 HTTP { $status }
aws-container-no-json = 没有返回含 AccessKeyId 和 SecretAccessKey 的 JSON

# STS
aws-token-file-failed = Web 身份令牌文件 { $path }（{ $from }）{ $why }
aws-fix-token-file = 请检查 { $var } 或配置文件的 web_identity_token_file
aws-sts-message = { $message }（角色 { $arn }，来自 { $from }）
aws-what-sts-token = 提供给 STS 的令牌
aws-what-sts-credentials = 提供给 STS 的凭证

# 实例元数据服务
aws-imds-did-not-tell = { $endpoint } 上的实例元数据服务没有给出 { $what }（{ $why }）；请传入 --instance ID 或在配置中设置 [instance] id
aws-imds-what-token = 会话令牌
aws-imds-what-instance-id = 实例 ID
aws-imds-what-region = 区域
aws-imds-what-role = 实例角色
aws-imds-no-role = 未附加角色
aws-imds-role-unreadable = 无法读取的实例角色凭证
aws-imds-spot-unreadable = 无法读取的 spot instance-action 通知：{ $error }
