"""Every line the server itself says to a person (the engine's refusals are the kernel's
catalogue's): in Chinese, the shipped boards' language, each with what to do next."""

ERR = {
    "csrf": "表单已过期（服务器重启后或浏览器的会话已更换）：请刷新本页，再提交一次。",
    "no_director": "需要导演登录链接：请打开 bansha serve 给出的导演链接（或让站长发一个新的）。",
    "bad_director": "导演链接无效或已被收回：请向站长索取新的导演链接。",
    "bad_link": "链接无效或已失效：请向导演索取新链接。",
    "no_game": "没有游戏 {name}：请回到游戏列表。",
    "not_yours": "这个游戏不属于你的导演链接：请回到游戏列表。",
    "throttled": "尝试次数过多：请在 {seconds} 秒后再试。",
    "too_large": "提交的内容太大（上限 {limit}）：请缩短后再试。",
    "bad_request": "请求格式有误：请刷新本页后再试。",
    "post_only": "此操作只接受表单提交：请回到页面上用按钮操作。",
    "not_found": "没有这个页面：请检查链接。",
    "internal": "服务器内部错误：请稍后再试；如果一再出现，请告诉导演。",
    "offline": "无法连接服务器（可能正在重启）：这次操作没有送达，没有保存；连接恢复后请重新提交。",
    "online": "已重新连接服务器。断开时的操作没有保存，请重新提交。",
    "phase_moved": "现在是{now}，不是{expected}：没有结算任何阶段。",
    "undo_moved": "最后一个事件已经变了（现在是 #{now}，不是 #{expected}）：没有撤销任何事件，请重新确认。",
}
