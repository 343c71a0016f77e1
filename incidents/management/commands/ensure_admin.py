"""`python manage.py ensure_admin`: create the local admin account on first start.

Prints the generated password once; later runs only say the account exists.
"""

import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Create a superuser with a generated password if there is none yet."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--username", default="admin")

    def handle(self, *args, username: str, **options) -> None:
        users = get_user_model().objects
        existing = users.filter(is_superuser=True).order_by("pk").first()
        if existing is not None:
            self.stdout.write(f"Admin account: {existing.get_username()} (already set up).")
            return
        password = secrets.token_urlsafe(12)
        users.create_superuser(username=username, email="", password=password)
        self.stdout.write(
            self.style.SUCCESS("Created the admin account. Its password is shown only now:")
        )
        self.stdout.write(f"  user:     {username}\n  password: {password}")
