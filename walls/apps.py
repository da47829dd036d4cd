from django.apps import AppConfig


class WallsConfig(AppConfig):
    name = "walls"
    verbose_name = "Walls"
