"""The logged-in user's pending invitations for the site menu and the home page:
``{% load invitations %}`` then ``{% pending_invitation_count as count %}`` (one query for a
logged-in user, none for a visitor)."""

from django import template

from tournament.roles import pending_invitations

register = template.Library()


@register.simple_tag(takes_context=True)
def pending_invitation_count(context) -> int:
    """How many invitations wait for the request's user to accept or decline them (0 for a
    visitor or a table login)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return 0
    return pending_invitations(user=user).count()
