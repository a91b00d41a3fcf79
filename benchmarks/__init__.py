"""Tools that measure the service, kept out of the deployed packages: the engine bench
(``python -m benchmarks.engine``) and its FFO endgame positions (``benchmarks/ffo/``)."""
