from django.apps import AppConfig


class UserContribAppConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "user_contrib_app"
