"""Creates the tables and registers one API user (added for this dev set, see SOURCE.md).

Non-interactive stand-in for the README's `python manage.py adduser <username>`
(manage.py needs Flask-Script, which does not run on current Flask). The user is
SERVICE_USERNAME / SERVICE_PASSWORD, default dave / cat (the user of upstream's
tests/test_api.py).
"""
import os

from api.app import create_app
from api.models import db, User

app = create_app('run_config')
with app.app_context():
    db.create_all()
    username = os.environ.get('SERVICE_USERNAME', 'dave')
    password = os.environ.get('SERVICE_PASSWORD', 'cat')
    db.session.add(User(username=username, password=password))
    db.session.commit()
