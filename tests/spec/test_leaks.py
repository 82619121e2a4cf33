"""find_code_leaks: implementation source is reported, data and requests are not."""

from __future__ import annotations

import pytest

from pipeline.spec import find_code_leaks

LEAKS = {
    "flask": "```python\nfrom flask import Flask\napp = Flask(__name__)\n\n"
             "@app.route('/x')\ndef x():\n    return 'x'\n```\n",
    "fastapi_unlabelled": "```\n@app.get('/items/{id}')\nasync def read(id: int):\n"
                          "    return {'id': id}\n```\n",
    "express": "```js\nconst express = require('express');\nconst app = express();\n"
               "app.get('/todos', (req, res) => res.json([]));\n```\n",
    "spring": "```java\n@RestController\npublic class ItemController {\n"
              "    @GetMapping(\"/items\")\n"
              "    public List<Item> all() { return repo.findAll(); }\n}\n```\n",
    "jdk": "```java\nimport com.sun.net.httpserver.HttpServer;\n```\n",
    "python_function": "```py\ndef total(items):\n    return sum(i.price for i in items)\n```\n",
    "indented": "    def handler(event):\n        return {'ok': True}\n",
    "import_only": "```python\nimport sqlite3\nconn = sqlite3.connect('db.sqlite')\n```\n",
}

CLEAN = {
    "json": "```json\n{\"id\": 1, \"name\": \"Ada\"}\n```\n",
    "json_with_comments": "```\n{\n  \"id\": 1, // the id\n  ...\n}\n```\n",
    "curl": "```bash\ncurl -X POST http://localhost:8000/items -d '{\"a\": 1}'\n```\n",
    "http": "```http\nPOST /login HTTP/1.1\nHost: localhost\n\n{\"u\": \"a\"}\n```\n",
    "shell": "```sh\npip install -r requirements.txt\npython app.py\n```\n",
    "client_python": "```python\nimport requests\nr = requests.get('http://localhost:8000/items')\n"
                     "print(r.json())\n```\n",
    "schema_class": "```python\nclass Item(BaseModel):\n    name: str\n    price: float\n```\n",
    "endpoint_lines": "```\nGET /items\nPOST /items\n```\n",
    "yaml": "```yaml\nopenapi: 3.0.0\npaths:\n  /items:\n    get: {}\n```\n",
    "sql_schema": "```sql\nCREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT);\n```\n",
    "ts_interface": "```ts\ninterface Item {\n  id: number;\n  name: string;\n}\n```\n",
}


@pytest.mark.parametrize("name", sorted(LEAKS))
def test_leak_is_reported(name: str) -> None:
    doc = "# Service\n\nSome text.\n\n" + LEAKS[name]
    messages = find_code_leaks(doc)
    assert len(messages) == 1
    assert messages[0].startswith("line 5:")
    assert "remove it: a requirement document must not give the solution away" in messages[0]


@pytest.mark.parametrize("name", sorted(CLEAN))
def test_data_and_requests_are_not_leaks(name: str) -> None:
    assert find_code_leaks("# Service\n\n" + CLEAN[name]) == []


def test_one_message_per_block_with_line_numbers() -> None:
    doc = "# S\n\n" + LEAKS["flask"] + "\ntext\n\n" + CLEAN["json"] + "\n"
    doc += LEAKS["python_function"]
    messages = find_code_leaks(doc)
    assert [m.split(":")[0] for m in messages] == ["line 3", "line 18"]
