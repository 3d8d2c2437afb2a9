"""Replay throughput: generated recordings replayed in one process and on a Dask
LocalCluster."""
