# -*- coding: utf-8 -*-
"""
    ownpaste.version
    ~~~~~~~~~~~~~~~~

    Module with ownpaste versions.

    :copyright: (c) 2012-2013 by Rafael Goncalves Martins
    :license: BSD, see LICENSE for more details.
"""

version = '0.2.2'
api_version = '1'
