# AWS: what the adapter itself says, in read-backs, credential lookups and failures.
