# Lambda, Vast, RunPod, the command adapter and what every adapter shares: what they say
# themselves, in read-backs, deletions and failures.
