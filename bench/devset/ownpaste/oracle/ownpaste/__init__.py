# -*- coding: utf-8 -*-
"""
    ownpaste
    ~~~~~~~~

    Main package.

    :copyright: (c) 2012-2013 by Rafael Goncalves Martins
    :license: BSD, see LICENSE for more details.
"""

# ignore useless warnings about modules already imported.
import warnings
warnings.filterwarnings('ignore', r'module.*already imported', UserWarning)

from flask import Flask, _request_ctx_stack
from werkzeug.exceptions import default_exceptions
from ownpaste.auth import HTTPDigestAuth
from ownpaste.models import Ip, Paste, db
from ownpaste.utils import error_handler
from ownpaste.views import views

import ownpaste.version

__version__ = ownpaste.version.version
api_version = ownpaste.version.api_version


def create_app(config_file=None):
    app = Flask(__name__)
    auth = HTTPDigestAuth()
    app.config.setdefault('PYGMENTS_STYLE', 'friendly')
    app.config.setdefault('PYGMENTS_LINENOS', True)
    app.config.setdefault('PER_PAGE', 20)
    app.config.setdefault('SQLALCHEMY_DATABASE_URI',
                          'sqlite:////tmp/ownpaste.db')
    app.config.setdefault('SQLALCHEMY_TRACK_MODIFICATIONS', False)
    app.config.setdefault('REALM', 'ownpaste')
    app.config.setdefault('USERNAME', 'ownpaste')
    app.config.setdefault('PASSWORD', auth.a1('test', app.config['USERNAME'],
                                              app.config['REALM']))
    app.config.setdefault('IP_BLOCK_HITS', 10)
    app.config.setdefault('IP_BLOCK_TIMEOUT', 60)  # in minutes
    app.config.setdefault('TIMEZONE', 'UTC')
    app.config.from_envvar('OWNPASTE_SETTINGS', True)
    if config_file is not None:
        app.config.from_pyfile(config_file)
    db.init_app(app)

    # register default error handler
    # based on: http://flask.pocoo.org/snippets/15/
    for _exc in default_exceptions:
        app.register_error_handler(_exc, error_handler)
    del _exc
    app.register_error_handler(401, auth.challenge)

    app.register_blueprint(views)

    # devset: the default-password guard (a before_first_request hook that
    # refuses to serve with the documented default password 'test') is
    # dropped so the service runs with the documented default credentials.

    return app


def create_script():
    # devset: Flask-Script / sqlalchemy-migrate do not install on Python 3.11;
    # imported lazily so the web application itself does not need them.
    from flask_script import Manager
    from ownpaste.script import GeneratePw, DbVersionControl, DbUpgrade, \
         DbDowngrade, DbVersion
    manager = Manager(create_app, with_default_commands=True)
    manager.add_option('-c', '--config-file', dest='config_file',
                       required=False)

    @manager.shell
    def _make_context():
        return dict(app=_request_ctx_stack.top.app, db=db, Paste=Paste, Ip=Ip)

    manager.add_command('generatepw', GeneratePw())
    manager.add_command('db_version_control', DbVersionControl())
    manager.add_command('db_upgrade', DbUpgrade())
    manager.add_command('db_downgrade', DbDowngrade())
    manager.add_command('db_version', DbVersion())
    return manager


def main():
    create_script().run()
