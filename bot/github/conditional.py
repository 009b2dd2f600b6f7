"""A file read with a conditional request: GitHub answers `304 Not Modified` to a matching
`If-None-Match`, and a 304 does not count against the rate limit."""

from __future__ import annotations

from dataclasses import dataclass

from gidgethub import sansio

from bot.github.calls import FileContent, InstallationClient, _mapped, file_content, split_repo


@dataclass(frozen=True)
class FileCheck:
    """`unchanged`: GitHub said 304; else `content` (None: no such file) and its ETag."""

    unchanged: bool
    content: FileContent | None = None
    etag: str | None = None


@_mapped
async def get_file_if_changed(
    client: InstallationClient, full_name: str, path: str, *, ref: str | None, etag: str | None
) -> FileCheck:
    owner, repo = split_repo(full_name)
    gh = client.gh
    url = sansio.format_url(
        "/repos/{owner}/{repo}/contents/{+path}{?ref}",
        {"owner": owner, "repo": repo, "path": path, "ref": ref},
        base_url=gh.base_url,
    )
    headers = sansio.create_headers(gh.requester, accept=sansio.accept_format())
    if etag:
        headers["if-none-match"] = etag
    status, response_headers, body = await gh._request("GET", url, headers)
    if status == 304:
        return FileCheck(unchanged=True, etag=etag)
    if status == 404:
        return FileCheck(unchanged=False)
    # Errors become gidgethub's exceptions here, then the App's own (`_mapped`).
    data, _, _ = sansio.decipher_response(status, response_headers, body)
    return FileCheck(
        unchanged=False,
        content=file_content(data, path),
        etag=response_headers.get("etag"),
    )
