"""Black-box port of the repository's src/tests/test_user.py (UsersTest, unittest + Flask test client).

Same requests (paths with the trailing slash, as upstream), same assertions. Differences forced by
black-box testing against one running service whose database is shared by all tests:
- the fixed e-mail addresses get a per-test suffix (upstream dropped all tables in tearDown), so
  'olawale@mail.com' becomes 'olawale-<tag>@mail.com' everywhere it is used;
- self.client().post(...) becomes requests.post(BASE + path, ...); json.loads(res.data) -> res.json().
Dropped (they fail on the oracle and on the upstream code; see SOURCE.md):
test_user_creation_with_no_password, test_user_creation_with_no_email, test_user_get_me,
test_user_update_me.
"""
import json
import os
import unittest
import uuid

import requests

BASE = os.environ.get("SERVICE_BASE_URL", "http://127.0.0.1:9204").rstrip("/")


class _Client:
    def post(self, path, headers=None, data=None):
        return requests.post(BASE + path, headers=headers, data=data, timeout=10)

    def get(self, path, headers=None):
        return requests.get(BASE + path, headers=headers, timeout=10)

    def put(self, path, headers=None, data=None):
        return requests.put(BASE + path, headers=headers, data=data, timeout=10)

    def delete(self, path, headers=None):
        return requests.delete(BASE + path, headers=headers, timeout=10)


class UsersTest(unittest.TestCase):
  """
  Users Test Case
  """
  def setUp(self):
    self.tag = uuid.uuid4().hex[:8]
    self.client = _Client
    self.user = {
      'fullname': 'olawale',
      'email': 'olawale-%s@mail.com' % self.tag,
      'password': 'passw0rd!'
    }

  def test_user_creation(self):
    """ test user creation with valid credentials """
    res = self.client().post('/api/v1/users/', headers={'Content-Type': 'application/json'}, data=json.dumps(self.user))
    json_data = res.json()
    self.assertTrue(json_data.get('jwt_token'))
    self.assertEqual(res.status_code, 201)

  def test_user_creation_with_existing_email(self):
    """ test user creation with already existing email"""
    res = self.client().post('/api/v1/users/', headers={'Content-Type': 'application/json'}, data=json.dumps(self.user))
    self.assertEqual(res.status_code, 201)
    res = self.client().post('/api/v1/users/', headers={'Content-Type': 'application/json'}, data=json.dumps(self.user))
    json_data = res.json()
    self.assertEqual(res.status_code, 400)
    self.assertTrue(json_data.get('error'))

  def test_user_creation_with_empty_request(self):
    """ test user creation with empty request """
    user1 = {}
    res = self.client().post('/api/v1/users/', headers={'Content-Type': 'application/json'}, data=json.dumps(user1))
    json_data = res.json()
    self.assertEqual(res.status_code, 400)

  def test_user_login(self):
    """ User Login Tests """
    res = self.client().post('/api/v1/users/', headers={'Content-Type': 'application/json'}, data=json.dumps(self.user))
    self.assertEqual(res.status_code, 201)
    res = self.client().post('/api/v1/users/login', headers={'Content-Type': 'application/json'}, data=json.dumps(self.user))
    json_data = res.json()
    self.assertTrue(json_data.get('jwt_token'))
    self.assertEqual(res.status_code, 200)

  def test_user_login_with_invalid_password(self):
    """ User Login Tests with invalid credentials """
    user1 = {
      'password': 'olawale',
      'email': 'olawale-%s@mail.com' % self.tag,
    }
    res = self.client().post('/api/v1/users/', headers={'Content-Type': 'application/json'}, data=json.dumps(self.user))
    self.assertEqual(res.status_code, 201)
    res = self.client().post('/api/v1/users/login', headers={'Content-Type': 'application/json'}, data=json.dumps(user1))
    json_data = res.json()
    self.assertFalse(json_data.get('jwt_token'))
    self.assertEqual(json_data.get('error'), 'invalid credentials')
    self.assertEqual(res.status_code, 400)

  def test_user_login_with_invalid_email(self):
    """ User Login Tests with invalid credentials """
    user1 = {
      'password': 'passw0rd!',
      'email': 'olawale1111-%s@mail.com' % self.tag,
    }
    res = self.client().post('/api/v1/users/', headers={'Content-Type': 'application/json'}, data=json.dumps(self.user))
    self.assertEqual(res.status_code, 201)
    res = self.client().post('/api/v1/users/login', headers={'Content-Type': 'application/json'}, data=json.dumps(user1))
    json_data = res.json()
    self.assertFalse(json_data.get('jwt_token'))
    self.assertEqual(json_data.get('error'), 'invalid credentials')
    self.assertEqual(res.status_code, 400)

  def test_delete_user(self):
    """ Test User Delete """
    res = self.client().post('/api/v1/users/', headers={'Content-Type': 'application/json'}, data=json.dumps(self.user))
    self.assertEqual(res.status_code, 201)
    api_token = res.json().get('jwt_token')
    res = self.client().delete('/api/v1/users/me', headers={'Content-Type': 'application/json', 'api-token': api_token})
    self.assertEqual(res.status_code, 204)
