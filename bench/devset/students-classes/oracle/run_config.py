"""Configuration used by start.sh (added for this dev set, see SOURCE.md).

Same settings as upstream config.py, except that the SQLite database lives in the
temporary folder start.sh makes (DATABASE_URL), and rate limiting is off: upstream
turns it on only when a Redis server answers on localhost, and none is part of this
task.
"""
import os

SECRET_KEY = 'secret'
SQLALCHEMY_DATABASE_URI = os.environ['DATABASE_URL']
SQLALCHEMY_TRACK_MODIFICATIONS = False
USE_TOKEN_AUTH = True
USE_RATE_LIMITS = False
