# 按去向划分的流量：status 与驾驶舱里的出网流量拆分，以及经公网上传进行中时的警告。
# 金额与字节数传入时已格式化。

traffic-label = 出网
traffic-split = 公网 { $internet }（{ $internet_cost }），内网 { $intranet }（{ $intranet_cost }），跨地域 { $cross }（{ $cross_cost }）{ $currency }
traffic-upload-label = 上传
traffic-upload = 正在经公网上传：自 { $since } 起已传 { $bytes }，花费 { $cost } { $currency }
traffic-upload-route = 改走 { $route }（云服务商内网）则不收费
traffic-upload-no-route = 改走同一存储的内网访问域名则不收费
