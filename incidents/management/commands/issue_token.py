"""`python manage.py issue_token <username>`: print a new API token for that user."""

from django.core.management.base import BaseCommand

from incidents.services import api_token_issue


class Command(BaseCommand):
    help = "Create the user if needed and print a new API bearer token for it."

    def add_arguments(self, parser) -> None:
        parser.add_argument("username")

    def handle(self, *args, username: str, **options) -> None:
        token, created = api_token_issue(username=username)
        if created:
            self.stderr.write(f"Created user {username!r} (API only, no password).")
        self.stdout.write(token)
