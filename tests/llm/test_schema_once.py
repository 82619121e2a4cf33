"""Output schemas generated once per class: same JSON Schema as pydantic's, fresh copies."""

from pydantic import BaseModel

from pipeline.llm.anthropic_provider import output_schema
from pipeline.llm.schemas import GenerateOutput, RefineOutput, ReviewOutput


def test_cached_schema_equals_pydantic_generation_and_is_a_fresh_copy() -> None:
    for model in (ReviewOutput, GenerateOutput, RefineOutput):
        fresh = BaseModel.model_json_schema.__func__(model)  # pydantic's own, uncached
        first = model.model_json_schema()
        assert first == fresh
        first["properties"].clear()  # an SDK changing its copy in place
        assert model.model_json_schema() == fresh


def test_cached_schema_passes_other_arguments_through() -> None:
    assert ReviewOutput.model_json_schema(mode="serialization") == \
        BaseModel.model_json_schema.__func__(ReviewOutput, mode="serialization")


def test_anthropic_output_schema_is_a_fresh_copy() -> None:
    first = output_schema(ReviewOutput)
    assert first["type"] == "object" and "correctness" in first["properties"]
    first["properties"].clear()
    assert "correctness" in output_schema(ReviewOutput)["properties"]
