from pipeline.cli import app

try:
    app(prog_name="repogenesis")
finally:
    # a SIGTERM whose `Terminated` was swallowed (see execution.process.terminated) still
    # decides the exit code
    from pipeline.execution.process import terminated

    if terminated() is not None:
        raise SystemExit(terminated())
