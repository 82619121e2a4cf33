"""The Area Chair web app: FastAPI + server-rendered jinja2 pages (no front-end build)."""
