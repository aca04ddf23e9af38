import IconButton from '@mui/material/IconButton';
import DeleteOutline from '@mui/icons-material/DeleteOutline';
import EditOutlined from '@mui/icons-material/EditOutlined';

/** A listed item's edit and delete icon buttons, each named for the item ('Editar filtro Clientes VIP'). */
export function EditDeleteButtons({ editLabel, deleteLabel, onEdit, onDelete }: { editLabel: string; deleteLabel: string; onEdit: () => void; onDelete: () => void }) {
  return (
    <>
      <IconButton size="small" aria-label={editLabel} onClick={onEdit}>
        <EditOutlined fontSize="small" />
      </IconButton>
      <IconButton size="small" aria-label={deleteLabel} onClick={onDelete}>
        <DeleteOutline fontSize="small" />
      </IconButton>
    </>
  );
}
