# Image for the web and worker services of docker-compose.yml.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 STATIC_ROOT=/app/staticfiles
WORKDIR /app
COPY . .
# Editable install: settings find templates/ and static/ next to the code in /app.
RUN pip install --no-cache-dir -e . \
    && SECRET_KEY=build-only RANKLENS_VAR_DIR=/tmp/build python manage.py collectstatic --noinput
EXPOSE 8000
