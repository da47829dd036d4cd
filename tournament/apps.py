from django.apps import AppConfig
from django.utils.translation import gettext, override

from tournament import i18n


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = "Tournament"

    def ready(self):
        """Hand Django's ``gettext`` and ``override`` to the pure core (see :mod:`tournament.i18n`)."""
        i18n.install(gettext, override)
