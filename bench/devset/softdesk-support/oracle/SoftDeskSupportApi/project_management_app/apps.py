from django.apps import AppConfig


class ProjectManagementAppConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "project_management_app"
