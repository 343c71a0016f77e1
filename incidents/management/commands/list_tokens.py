"""`python manage.py list_tokens [username]`: every API token (never the secret itself)."""

from django.core.management.base import BaseCommand

from incidents.models import ApiToken


def _state(token: ApiToken) -> str:
    if token.revoked_at is not None:
        return f"revoked {token.revoked_at:%Y-%m-%d}"
    return "expired" if token.is_expired else "active"


class Command(BaseCommand):
    help = "List API tokens: id, prefix, user, name, expiry, last use, state."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username", nargs="?", help="only this user's tokens")

    def handle(self, *args, username: str | None, **options) -> None:
        tokens = ApiToken.objects.select_related("user")
        if username:
            tokens = tokens.filter(user__username=username)
        for t in tokens:
            used = f"{t.last_used_at:%Y-%m-%d %H:%M}" if t.last_used_at else "never"
            self.stdout.write(
                f"{t.pk}\t{t.prefix}…\t{t.user.get_username()}\t{t.name or '-'}\t"
                f"expires {t.expires_at:%Y-%m-%d}\tused {used}\t{_state(t)}"
            )
