"""`--collection` (repeatable), `--channel`, `--channel-id` and `--dm` for `search`, `ask` and `coverage`: what the
command may see, as one synthesis.scoping.Visibility (None: the one configured collection, as before)."""

from __future__ import annotations

from synthesis.errors import ConfigError


def add_scope_options(p, what: str) -> None:
    p.add_argument("--collection", metavar="NAME", action="append", default=None,
                   help=f"collection to {what} (default: SYNTHBOT_COLLECTION); repeat it to {what} several together")
    p.add_argument("--channel", metavar="NAME", help="see what the channel NAME may see under the channel rules "
                                                     "(SYNTHBOT_CHANNEL_RULES)")
    p.add_argument("--channel-id", metavar="ID", help="the same for a channel id (its id rule; with --channel, both)")
    p.add_argument("--dm", action="store_true", help="see what a direct message may see under the channel rules")


def visibility_from(args, settings):
    """The Visibility the options ask for, or None for the one configured collection (today's default)."""
    from synthesis.scoping import Channel, Grant, Visibility, check_collection_name, load_rules, refusal, resolve

    names = list(dict.fromkeys(args.collection or []))
    as_channel = bool(args.channel or args.channel_id or args.dm)
    if names and as_channel:
        raise ConfigError("give either --collection or --channel/--channel-id/--dm, not both: a channel sees what "
                          "its rule says")
    if as_channel:
        if not settings.channel_rules:
            raise ConfigError("--channel, --channel-id and --dm apply the channel rules: set SYNTHBOT_CHANNEL_RULES "
                              "to the rules file (see README, \"Channel rules\")")
        if args.dm and (args.channel or args.channel_id):
            raise ConfigError("--dm acts in a direct message: leave out --channel and --channel-id")
        channel = Channel(id="D0CLI", kind="im") if args.dm else Channel(id=args.channel_id or "",
                                                                          name=args.channel or "")
        visibility = resolve(load_rules(settings.channel_rules), channel)
        if not visibility.grants:
            raise refusal(visibility, channel)
        return visibility
    if len(names) > 1:
        return Visibility(tuple(Grant(collection=check_collection_name(n)) for n in names), "--collection")
    return None


def single_collection(args) -> str | None:
    """The one --collection given (or None for SYNTHBOT_COLLECTION)."""
    return (args.collection or [None])[0]
