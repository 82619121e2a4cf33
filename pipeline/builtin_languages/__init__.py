"""The languages the pipeline ships with: each module wires one language's route reader,
mutation operators and environment into a `pipeline.languages.Language` and registers it.

They sit above execution, mutation and routes (they use all three), while the registry in
`pipeline.languages` sits below them: the registry imports these modules by name on first use
(`pipeline.languages.BUILTIN`), so no lower layer imports them.
"""
