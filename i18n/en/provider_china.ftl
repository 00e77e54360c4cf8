# Alibaba Cloud, Tencent Cloud and AutoDL, and the RPC clouds' shared caller: what the adapters
# themselves say, in read-backs, credential lookups and failures.
