"""`python manage.py revoke_token <id or prefix>`: stop a token working at once."""

from django.core.management.base import BaseCommand, CommandError

from incidents.accounts.token_services import TokenError, api_token_find, api_token_revoke


class Command(BaseCommand):
    help = "Revoke an API token, named by the id or prefix that list_tokens shows."

    def add_arguments(self, parser) -> None:
        parser.add_argument("token", help="id or prefix (e.g. rl_AbCdEfG)")

    def handle(self, *args, token: str, **options) -> None:
        try:
            found = api_token_find(token.rstrip("…"))
        except TokenError as error:
            raise CommandError(str(error)) from error
        if not api_token_revoke(token=found, actor=None):
            raise CommandError(f"Token {found.prefix}… was already revoked.")
        self.stdout.write(f"Revoked {found.prefix}… of {found.user.get_username()}.")
