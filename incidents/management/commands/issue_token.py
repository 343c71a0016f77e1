"""`python manage.py issue_token <username> [--expires-days N] [--name TEXT]`: print a new
API token for that user."""

from django.core.management.base import BaseCommand, CommandError

from incidents.accounts.token_services import DEFAULT_EXPIRY_DAYS, TokenError, api_token_issue


class Command(BaseCommand):
    help = "Create the user if needed and print a new API bearer token for it."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")
        parser.add_argument(
            "--expires-days",
            type=int,
            default=DEFAULT_EXPIRY_DAYS,
            help=f"days until the token stops working (default {DEFAULT_EXPIRY_DAYS})",
        )
        parser.add_argument("--name", default="", help="what the token is for, shown in lists")

    def handle(self, *args, username: str, expires_days: int, name: str, **options) -> None:
        try:
            token, created = api_token_issue(
                username=username, name=name, expires_days=expires_days
            )
        except TokenError as error:
            raise CommandError(str(error)) from error
        if created:
            self.stderr.write(f"Created user {username!r} (API only, no password).")
        self.stdout.write(token)
