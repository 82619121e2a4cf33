"""The build's stages, one module each: observe the oracle, generate, execute (the gate),
review and refine rounds, mutate, route (through `pipeline.routing`), split and publish the
splits; plus the commands' own work (`check`, `collect`, `resplit`, `difficulty`). Stages call
the engines below them (offline, llm, chair, mutation, execution) and never a report or the CLI.
"""
