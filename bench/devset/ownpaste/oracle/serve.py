"""devset runner (replaces the Flask-Script `ownpaste ... runserver` command).

Creates the tables with db.create_all() (the schema the two sqlalchemy-migrate
versions build) and serves the app on 0.0.0.0:$PORT. Configuration comes from
OWNPASTE_SETTINGS, as upstream documents.
"""
import os

from ownpaste import create_app
from ownpaste.models import db

app = create_app()
with app.app_context():
    db.create_all()

if __name__ == '__main__':
    app.run(host=os.environ.get('HOST', '0.0.0.0'),
            port=int(os.environ.get('PORT', '9212')), use_reloader=False)
