// A player's name as the site's pages show it (templates/_player.html): an account's name links
// to its profile (/@/<username>/) after its small avatar; a guest's, a bot's or a deleted
// player's (no username) is the name alone. Built from nodes: a name is never read as HTML.

export function profilePath(username) {
  return `/@/${encodeURIComponent(username)}/`;
}

export function playerName(name, username, { avatar = true } = {}) {
  if (!username) return document.createTextNode(name);
  const link = document.createElement("a");
  link.className = "player-link";
  link.href = profilePath(username);
  if (avatar) {
    const img = document.createElement("img");
    img.className = "avatar tiny";
    img.src = `${profilePath(username)}avatar.svg`;
    img.alt = "";
    img.width = img.height = 20;
    link.append(img);
  }
  link.append(name);
  return link;
}
