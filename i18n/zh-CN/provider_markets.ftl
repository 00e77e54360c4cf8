# Lambda、Vast、RunPod、command 适配器，以及所有适配器共用的部分：它们自己说的话，包括回读、删除与失败。
